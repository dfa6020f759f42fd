/** The lines `npm start` says to a person watching it start (cli/start.ts says when). */

/** One short line for a person watching the start; the logs say the rest. */
export type Say = (line: string) => void;

/**
 * `npm start`'s phases as one line each on `stream` when it is a terminal: someone waiting for a
 * first start sees where it is (the build says its own), and a pipe or a supervisor gets the
 * logs alone.
 */
export function terminalLines(stream: Pick<NodeJS.WriteStream, "isTTY" | "write"> = process.stderr): Say {
  return stream.isTTY ? (line) => void stream.write(`tokenpool: ${line}\n`) : () => {};
}

/** The URL a person opens for a server on `host`:`port` (a wildcard address means this machine). */
export function localUrl(host: string, port: number): string {
  const name = host === "0.0.0.0" || host === "::" || host === "" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}/`;
}
