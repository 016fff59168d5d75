// The generated EAD 2002 finding aid the import and job benchmarks read: a collection of `series` series of
// `filesPerSeries` files each, with containers, dates, agents, subjects and two paragraphs of scope per file (100
// series of 999 files is a 56 MB file of 100,000 components).
import { createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";

export interface EadShape {
  series: number;
  filesPerSeries: number;
  filesPerBox: number;
  eadid?: string;
}

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** Writes the finding aid; returns its size in bytes. */
export async function writeEad(
  path: string,
  { series: SERIES, filesPerSeries: FILES_PER_SERIES, filesPerBox: FILES_PER_BOX, eadid = "bench.100k" }: EadShape,
): Promise<number> {
  const out = createWriteStream(path);
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((done) => out.once("drain", () => done()));
  await write(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE ead PUBLIC "+//ISBN 1-931666-00-8//DTD ead.dtd (Encoded Archival Description (EAD) Version 2002)//EN" "ead.dtd">
<ead xmlns="urn:isbn:1-931666-22-9" xmlns:xlink="http://www.w3.org/1999/xlink">
<eadheader><eadid>${eadid}</eadid><filedesc><titlestmt><titleproper>Generated papers</titleproper></titlestmt></filedesc></eadheader>
<archdesc level="collection">
<did><unittitle>Generated papers</unittitle><unitid>${eadid.toUpperCase()}</unitid><unitdate normal="1850/1950" type="inclusive">1850-1950</unitdate>
<physdesc><extent>500 linear feet</extent></physdesc><langmaterial><language langcode="eng">English</language></langmaterial>
<origination label="creator"><persname>Hollis, Margaret, 1850-1931</persname></origination></did>
<scopecontent><p>Correspondence, diaries and business records of a generated family.</p></scopecontent>
<controlaccess><subject source="lcsh">Families</subject><geogname source="lcsh">Hudson River Valley (N.Y. and N.J.)</geogname></controlaccess>
<dsc>
`);
  let box = 0;
  for (let s = 1; s <= SERIES; s++) {
    await write(`<c01 level="series" id="s${s}"><did><unittitle>Series ${s}: ${escape(["Correspondence", "Diaries", "Ledgers", "Photographs"][s % 4] as string)}</unittitle><unitid>${s}</unitid><unitdate normal="${1850 + (s % 50)}/${1900 + (s % 50)}">${1850 + (s % 50)}-${1900 + (s % 50)}</unitdate></did>
<scopecontent><p>Records of series ${s}, arranged chronologically.</p></scopecontent>
<controlaccess><persname role="cre">Correspondent ${s % 40}, Ada</persname><subject>Topic ${s % 25}</subject></controlaccess>
`);
    const parts: string[] = [];
    for (let f = 1; f <= FILES_PER_SERIES; f++) {
      if ((f - 1) % FILES_PER_BOX === 0) box++;
      const year = 1850 + ((s * 7 + f) % 100);
      parts.push(
        `<c02 level="file" id="s${s}f${f}"><did><unittitle>Letters and papers, folder ${f}</unittitle><unitid>${s}.${f}</unitid>` +
          `<unitdate normal="${year}/${year + 1}">${year}-${year + 1}</unitdate>` +
          `<container type="Box">${box}</container><container type="Folder">${f}</container></did>` +
          `<scopecontent><p>Letters received by the family in ${year} and ${year + 1}, with drafts of replies, receipts and clippings; folder ${f} of series ${s}.</p>` +
          `<p>Correspondents include merchants, ministers and relatives in Albany, Kingston and New York; several letters concern the sale of river frontage and the settlement of an estate.</p></scopecontent></c02>\n`,
      );
      if (parts.length === 100) await write(parts.splice(0).join(""));
    }
    await write(`${parts.join("")}</c01>\n`);
  }
  await write("</dsc>\n</archdesc>\n</ead>\n");
  await new Promise<void>((done) => out.end(() => done()));
  return (await stat(path)).size;
}
