/**
 * The client's operation methods (client/src/operations.ts), generated from the API document:
 * one method per operation, named after its operationId, in a group per tag —
 * `getAssetMetadata` (tag assets) is `assets.getMetadata`. A list paged by a keyset cursor also
 * gets an iterator (`listHoldersAll`). An operation added to the app is a method at the next
 * `npm run client:types`; client/test/types.test.ts fails until then.
 */

type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema> };
type Param = { in: string; name: string; required?: boolean };
type Content = Record<string, { schema?: Schema }>;
type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  parameters?: Param[];
  requestBody?: { required?: boolean; content?: Content };
  responses?: Record<string, { content?: Content }>;
};
type Doc = { tags?: { name: string; description?: string }[]; paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

/** One method to write. */
interface Method {
  group: string;
  name: string;
  operationId: string;
  http: string;
  path: string;
  summary: string;
  pathParams: string[];
  query: "none" | "optional" | "required";
  body: "none" | "optional" | "required";
  parseAs: "json" | "text";
  /** The paged list's property, when the operation is keyset-paged. */
  items?: string;
}

const HTTP = ["get", "post", "put", "patch", "delete"];

const camel = (s: string) => s.replace(/[-_\s]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * `getAssetMetadata` in group `assets` → `getMetadata`: the group's noun (singular or plural) is
 * dropped once, where it stands as whole camel-case words whatever their capitals
 * (`getDexScreenerPair` in group `dexscreener` → `getPair`).
 */
export function methodName(operationId: string, group: string): string {
  const singular = (group.endsWith("s") ? group.slice(0, -1) : group).toLowerCase();
  const lower = operationId.toLowerCase();
  for (const noun of [`${singular}s`, singular]) {
    for (let at = lower.indexOf(noun, 1); at > 0; at = lower.indexOf(noun, at + 1)) {
      const end = at + noun.length;
      const starts = /[a-z0-9]/.test(operationId[at - 1]!) && /[A-Z]/.test(operationId[at]!);
      const ends = end === operationId.length || /[A-Z0-9]/.test(operationId[end]!);
      if (starts && ends) return operationId.slice(0, at) + operationId.slice(end);
    }
  }
  return operationId;
}

function resolve(doc: Doc, s: Schema | undefined): Schema | undefined {
  const name = s?.$ref?.replace("#/components/schemas/", "");
  return name ? doc.components?.schemas?.[name] : s;
}

/** Arrays a page carries beside its list: the history's gaps (docs/api.md, "Coverage"). */
const PAGE_METADATA = new Set(["historyGaps"]);

/** The list of a keyset-paged answer: a `cursor` query, and an answer with `nextCursor` and one list. */
function pagedItems(doc: Doc, op: Operation): string | undefined {
  if (!op.parameters?.some((p) => p.in === "query" && p.name === "cursor")) return undefined;
  const props = resolve(doc, op.responses?.["200"]?.content?.["application/json"]?.schema)?.properties ?? {};
  if (!("nextCursor" in props)) return undefined;
  const lists = Object.entries(props).filter(([k, s]) => resolve(doc, s)?.type === "array" && !PAGE_METADATA.has(k));
  if (lists.length !== 1) throw new Error(`${op.operationId} is paged by cursor, but its answer has ${lists.length} lists (${lists.map(([k]) => k).join(", ")}): say which are not the list in PAGE_METADATA`);
  return lists[0]![0];
}

export function operationMethods(doc: Doc): Method[] {
  const out: Method[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [http, op] of Object.entries(ops)) {
      if (!HTTP.includes(http)) continue;
      if (!op.operationId) throw new Error(`${http.toUpperCase()} ${path} has no operationId: the client names its method after it`);
      const group = camel(op.tags?.[0] ?? path.split("/")[1]!);
      const params = op.parameters ?? [];
      const query = params.filter((p) => p.in === "query");
      const ok = Object.entries(op.responses ?? {}).filter(([s]) => /^2\d\d$/.test(s));
      const json = ok.some(([, r]) => r.content?.["application/json"]);
      const body = op.requestBody?.content?.["application/json"];
      out.push({
        group,
        name: methodName(op.operationId, group),
        operationId: op.operationId,
        http: http.toUpperCase(),
        path,
        summary: op.summary ?? op.operationId,
        // In the order the path names them: the method's leading arguments.
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        query: query.length === 0 ? "none" : query.some((p) => p.required) ? "required" : "optional",
        body: !body ? "none" : op.requestBody?.required ? "required" : "optional",
        parseAs: json || ok.length === 0 ? "json" : "text",
        items: pagedItems(doc, op),
      });
    }
  }
  const seen = new Map<string, string>();
  for (const m of out) {
    for (const name of m.items ? [m.name, `${m.name}All`] : [m.name]) {
      const key = `${m.group}.${name}`;
      if (seen.has(key)) throw new Error(`${m.operationId} and ${seen.get(key)} would both be client.${key}: rename one operationId`);
      seen.set(key, m.operationId);
    }
  }
  return out.sort((a, b) => a.group.localeCompare(b.group) || a.name.localeCompare(b.name));
}

const doc = (lines: string[], indent: string) => [`${indent}/**`, ...lines.map((l) => `${indent} * ${l.replaceAll("*/", "*\\/")}`.trimEnd()), `${indent} */`].join("\n");
const identifier = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : camel(name.replace(/[^\w$-]/g, "_")));

function signature(m: Method, paged: boolean): { params: string; args: string[] } {
  const O = `operations["${m.operationId}"]`;
  const params = m.pathParams.map((p) => `${identifier(p)}: PathValue`);
  const args = [...m.pathParams.map(identifier)];
  if (m.body !== "none") {
    params.push(`body${m.body === "optional" ? "?" : ""}: Body<${O}>`);
    args.push("body");
  }
  if (m.query !== "none") {
    params.push(`query${m.query === "optional" ? "?" : ""}: ${paged ? "PageQuery" : "Query"}<${O}>`);
    args.push("query");
  }
  params.push("options?: CallOptions");
  args.push("options");
  return { params: params.join(", "), args };
}

function request(m: Method): string {
  const parts = [`method: "${m.http}"`, `path: "${m.path}"`];
  const params = [m.pathParams.length ? `path: { ${m.pathParams.map((p) => (identifier(p) === p ? p : `"${p}": ${identifier(p)}`)).join(", ")} }` : "", m.query !== "none" ? "query" : ""].filter(Boolean);
  if (params.length) parts.push(`params: { ${params.join(", ")} }`);
  if (m.body !== "none") parts.push("body");
  if (m.parseAs !== "json") parts.push(`parseAs: "${m.parseAs}"`);
  return `{ ${parts.join(", ")} }`;
}

function members(m: Method): { decl: string[]; impl: string[] } {
  const O = `operations["${m.operationId}"]`;
  const ret = m.parseAs === "text" ? "Promise<string>" : `Promise<Json<${O}>>`;
  const one = signature(m, false);
  const decl = [doc([m.summary, "", `\`${m.http} ${m.path}\` (operationId \`${m.operationId}\`)`], "  "), `  ${m.name}(${one.params}): ${ret};`];
  const impl = [`    ${m.name}: (${one.args.join(", ")}) => t.request(${request(m)}, options),`];
  if (m.items) {
    const all = signature(m, true);
    decl.push(
      doc([`Every item of \`${m.name}\` (its \`${m.items}\`), fetched a page at a time by keyset cursor as the loop asks; \`toArray({ limit })\` collects them.`], "  "),
      `  ${m.name}All(${all.params}): PageIterator<Item<${O}, "${m.items}">>;`,
    );
    impl.push(`    ${m.name}All: (${all.args.join(", ")}) => t.pages(${request(m)}, "${m.items}", options),`);
  }
  return { decl, impl };
}

const HEADER = `/**
 * Generated from the TokenPool API document (/openapi.json) by scripts/client-operations.ts: do
 * not edit. One method per operation, named after its operationId, grouped by tag. Regenerate
 * with \`npm run client:types\`; the test suite fails while this file differs from the document
 * the app serves.
 */
`;

export function generateOperations(document: unknown): string {
  const d = document as Doc;
  const methods = operationMethods(d);
  const groups = [...new Set(methods.map((m) => m.group))];
  const type = (g: string) => `${capital(g)}Operations`;
  const out: string[] = [];
  for (const g of groups) {
    const ms = methods.filter((m) => m.group === g).map(members);
    const description = d.tags?.find((t) => camel(t.name) === g)?.description;
    if (description) out.push(doc([description], ""));
    out.push(`export interface ${type(g)} {`, ...ms.flatMap((m) => m.decl), "}", "");
    out.push(`export function ${g}Operations(t: Transport): ${type(g)} {`, "  return {", ...ms.flatMap((m) => m.impl), "  };", "}", "");
  }
  out.push(doc(["Every operation of the document, by group."], ""), "export interface Operations {");
  for (const g of groups) out.push(`  ${g}: ${type(g)};`);
  out.push("}", "", "export function createOperations(t: Transport): Operations {", "  return {");
  for (const g of groups) out.push(`    ${g}: ${g}Operations(t),`);
  out.push("  };", "}", "");
  const body = out.join("\n");
  // Only the helpers some method uses: an unused import fails the typecheck.
  const used = ["Body", "CallOptions", "Item", "Json", "PageQuery", "PathValue", "Query", "Transport"].filter((n) => new RegExp(`\\b${n}\\b`).test(body));
  const imports = [`import type { ${used.join(", ")} } from "./call.js";`, ...(body.includes("PageIterator<") ? [`import type { PageIterator } from "./paginate.js";`] : []), `import type { operations } from "./schema.js";`];
  return [HEADER, ...imports, "", body].join("\n");
}
