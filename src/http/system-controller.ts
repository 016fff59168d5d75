// Routes about the service itself; none needs a session (docs/api.md §2).
import { Controller } from "@tsed/di";
import { ContentType } from "@tsed/schema";
import { ARCA_VERSION, VERSION_TEXT } from "../version.js";
import { commonResponses, jsonResponse, type Tag } from "./api-description.js";
import { Route } from "./described-route.js";

const SYSTEM: Tag = { name: "system", description: "The service itself." };
const SERVICE_INFO = { name: "Arca", arcaVersion: ARCA_VERSION, databaseProductName: "MongoDB" };

@Controller("/")
export class SystemController {
  /** What ArchivesSpace clients probe first; the same keys ArchivesSpace answers with. */
  @Route("get", "/", (ctx) => ({
    operationId: "get_service_info",
    summary: "What the service is",
    description: "Needs no session. The keys ArchivesSpace answers with, which clients probe first.",
    tag: SYSTEM,
    responses: {
      "200": jsonResponse(
        "The service.",
        ctx.component("ServiceInfo", {
          type: "object",
          required: ["name", "arcaVersion", "databaseProductName"],
          properties: {
            name: { const: "Arca" },
            arcaVersion: { type: "string" },
            databaseProductName: { type: "string" },
          },
        }),
        SERVICE_INFO,
      ),
      ...commonResponses(),
    },
  }))
  root(): Record<string, string> {
    return SERVICE_INFO;
  }

  @Route("get", "/version", () => ({
    operationId: "get_version",
    summary: "The version, as plain text",
    description:
      "Needs no session. `(v<ArchivesSpace API version>) Arca <version>`: the ArchivesSpace release whose API Arca " +
      "speaks, first and in parentheses, where ArchivesSnake's version parsing (anchored at the start) finds it.",
    tag: SYSTEM,
    responses: {
      "200": {
        description: "The version.",
        content: { "text/plain": { schema: { type: "string" }, example: VERSION_TEXT } },
      },
      ...commonResponses(),
    },
  }))
  @ContentType("text/plain")
  version(): string {
    return VERSION_TEXT;
  }
}
