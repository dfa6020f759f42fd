/** The body of a chunked HTTP answer read off a raw socket (latin1 text of ASCII: lengths are byte counts). */
export function dechunk(raw: string): string {
  let out = "";
  for (let at = 0; ; ) {
    const eol = raw.indexOf("\r\n", at);
    const size = parseInt(raw.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += raw.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}
