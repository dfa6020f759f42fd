/**
 * Attackers on a machine of their own: sends every request of a JSON list (on stdin: { port,
 * requests: [{ path, headers }], probe: { path, headers } }) at once, each on its own connection,
 * reading 200 answers to the end and dropping them. Right after, it sends `probe`, and prints
 * {"ingested": ms} when it is answered (the server has read the burst); then, once every answer
 * is in, {"results": [{ status, code, retryAfter }]}. Plain JavaScript, run by node itself, so
 * that the flood's client side shares no event loop with the test measuring the server.
 */
import http from "node:http";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { port, requests, probe } = JSON.parse(input);

function send({ path, headers }) {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
      let body = "";
      if (res.statusCode === 200) res.resume();
      else res.on("data", (d) => (body += d));
      res.on("end", () => {
        let code;
        try {
          code = res.statusCode === 200 ? undefined : JSON.parse(body).error?.code;
        } catch {
          code = `unparsable: ${body.slice(0, 80)}`;
        }
        resolve({ status: res.statusCode, code, retryAfter: res.headers["retry-after"] });
      });
      res.on("error", (err) => resolve({ status: 0, code: String(err) }));
    });
    req.on("error", (err) => resolve({ status: 0, code: String(err) }));
  });
}

const all = Promise.all(requests.map(send));
const started = performance.now();
await send(probe);
process.stdout.write(`${JSON.stringify({ ingested: Math.round(performance.now() - started) })}\n`);
process.stdout.write(`${JSON.stringify({ results: await all })}\n`);
