// Form bodies (urlencoded and multipart) as the scalar parameters they carry (docs/api.md
// §1), with the same rules as every other text: UTF-8, no NUL, each refusal naming the field.
// A form has at most MAX_FORM_FIELDS fields: its bytes are bounded before it gets here, but
// not how many small objects they turn into. No file may come in a multipart body: no route
// takes one (imports stream their file as the raw body).
import busboy from "busboy";
import type { IncomingHttpHeaders } from "node:http";
import { ApiError, badRequest } from "../errors/api-error.js";
import { PARSE_TROUBLE, type FieldLocator } from "./json-body.js";
import { decodeComponent, firstInvalidUtf8, NOT_UTF8, textProblem } from "./text-checks.js";

/** The most fields one form body may carry; past it, 413. */
export const MAX_FORM_FIELDS = 1000;

/** A form's fields by name, a repeated name as an array. Null-prototype: names are the sender's. */
export type FormFields = Record<string, string | string[]>;

const tooManyFields = () => new ApiError(413, `Request body too large: more than ${MAX_FORM_FIELDS} form fields`);

class FieldCollector {
  private readonly fields = new Map<string, string[]>();
  private count = 0;

  add(name: string, value: string): void {
    if (++this.count > MAX_FORM_FIELDS) throw tooManyFields();
    const problem = textProblem(name) ?? textProblem(value);
    if (problem !== undefined) throw badRequest({ [name]: [problem] });
    const values = this.fields.get(name);
    if (values) values.push(value);
    else this.fields.set(name, [value]);
  }

  result(): FormFields {
    const fields = Object.create(null) as FormFields;
    for (const [name, values] of this.fields) fields[name] = values.length === 1 ? values[0]! : values;
    return fields;
  }
}

/** An urlencoded body's text (already UTF-8) as its fields. @throws ApiError 400, 413 */
export function parseUrlencoded(text: string): FormFields {
  const collector = new FieldCollector();
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decodeComponent(rawName, false);
    if ("problem" in name) throw badRequest({ [rawName]: [`Parameter name: ${name.problem}`] });
    const value = decodeComponent(equals === -1 ? "" : pair.slice(equals + 1), false);
    if ("problem" in value) throw badRequest({ [name.text]: [value.problem] });
    collector.add(name.text, value.text);
  }
  return collector.result();
}

/** The (undecoded) name of the urlencoded field that character `index` falls in. */
export const urlencodedFieldAt: FieldLocator = (text, index) => {
  const start = text.lastIndexOf("&", index - 1) + 1;
  const end = text.indexOf("=", start);
  const name = end === -1 || end > index ? "" : text.slice(start, end);
  return name.replace(/[^\x20-\x7e]/g, "?");
};

/** The name of the multipart field whose part holds byte `offset`, when its header says. */
function multipartFieldAt(bytes: Buffer, offset: number): string {
  const partStart = bytes.lastIndexOf("\r\n\r\n", offset);
  if (partStart === -1) return "";
  const headerStart = bytes.lastIndexOf("\r\n--", partStart);
  const header = bytes.subarray(headerStart === -1 ? 0 : headerStart, partStart).toString("latin1");
  return /;\s*name="([\x20-\x21\x23-\x7e]*)"/i.exec(header)?.[1] ?? "";
}

/** A multipart body's bytes as its fields. @throws ApiError 400, 413 */
export async function parseMultipart(bytes: Buffer, headers: IncomingHttpHeaders): Promise<FormFields> {
  const offset = firstInvalidUtf8(bytes);
  if (offset !== -1) {
    const name = multipartFieldAt(bytes, offset);
    throw name === ""
      ? badRequest(`${PARSE_TROUBLE}: invalid UTF-8 at byte ${offset}`)
      : badRequest({ [name]: [`${NOT_UTF8} (invalid byte at offset ${offset})`] });
  }
  const collector = new FieldCollector();
  await new Promise<void>((resolve, reject) => {
    let failure: Error | undefined;
    const fail = (error: Error) => {
      failure ??= error;
    };
    let parser: ReturnType<typeof busboy>;
    try {
      parser = busboy({
        headers,
        defCharset: "utf8",
        defParamCharset: "utf8",
        limits: { files: 0, fields: MAX_FORM_FIELDS, parts: MAX_FORM_FIELDS, fieldSize: bytes.length },
      });
    } catch (error) {
      reject(badRequest(`${PARSE_TROUBLE}: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    parser.on("field", (name, value) => {
      if (failure) return;
      if (name === undefined) return fail(badRequest(`${PARSE_TROUBLE}: a form field without a name`));
      try {
        collector.add(name, value);
      } catch (error) {
        fail(error as Error);
      }
    });
    parser.on("filesLimit", () => fail(badRequest(`${PARSE_TROUBLE}: no route takes a file in a form body`)));
    parser.on("fieldsLimit", () => fail(tooManyFields()));
    parser.on("partsLimit", () => fail(tooManyFields()));
    parser.on("error", (error) => reject(failure ?? badRequest(`${PARSE_TROUBLE}: ${error.message}`)));
    parser.on("close", () => (failure ? reject(failure) : resolve()));
    parser.end(bytes);
  });
  return collector.result();
}
