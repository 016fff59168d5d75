// Routes about the service itself; none needs a session (docs/api.md §2).
import { Controller } from "@tsed/di";
import { ContentType, Get } from "@tsed/schema";
import { ARCA_VERSION } from "../version.js";

@Controller("/")
export class SystemController {
  /** What ArchivesSpace clients probe first; the same keys ArchivesSpace answers with. */
  @Get("/")
  root(): Record<string, string> {
    return { name: "Arca", arcaVersion: ARCA_VERSION, databaseProductName: "MongoDB" };
  }

  @Get("/version")
  @ContentType("text/plain")
  version(): string {
    return `Arca ${ARCA_VERSION}`;
  }
}
