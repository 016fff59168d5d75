// The API explorer at /docs in a real headless browser (Debian's chromium, driven by
// playwright-core): the page loads with no console error (a script the page's policy blocked
// would be one), shows every operation of /openapi.json and the schemas, and "Try it out" sends
// the session token entered under Authorize. Skipped, saying so, where no chromium is installed
// (`.ci/run` installs it; CHROMIUM_PATH points elsewhere).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync } from "node:fs";
import playwright, { type Browser, type Page } from "playwright-core";
import { startService, type Service } from "../support/service.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium)
  process.stderr.write(
    `explorer.browser.test.ts: skipped, no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)\n`,
  );

interface OperationSummary {
  operationId: string;
  path: string;
  method: string;
}

const HTTP_METHODS = ["get", "post", "put", "delete"] as const;

(haveChromium ? describe : describe.skip)("the API explorer at /docs, in chromium", () => {
  let app: Service;
  let browser: Browser;
  let page: Page;
  let operations: OperationSummary[];
  let schemaNames: string[];
  const problems: string[] = [];

  beforeAll(async () => {
    app = await startService();
    const description = (await (await fetch(`${app.url}/openapi.json`)).json()) as {
      paths: Record<string, Partial<Record<string, { operationId: string }>>>;
      components: { schemas: Record<string, { title?: string }> };
    };
    // Swagger UI heads each schema with its title, or its name when it has none.
    schemaNames = Object.entries(description.components.schemas).map(([name, schema]) => schema.title ?? name);
    operations = Object.entries(description.paths).flatMap(([path, item]) =>
      HTTP_METHODS.flatMap((method) =>
        item[method] === undefined ? [] : [{ operationId: item[method].operationId, path, method }],
      ),
    );
    browser = await playwright.chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-background-networking"],
    });
    // Swagger UI renders only the operations near the viewport: one tall enough shows them all.
    page = await browser.newPage({ viewport: { width: 1280, height: 30_000 } });
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page: ${error.message}`));
    // Nothing may be fetched from anywhere but the service.
    page.on("request", (request) => {
      if (!request.url().startsWith(app.url) && !request.url().startsWith("data:"))
        problems.push(`outside request: ${request.url()}`);
    });
    await page.goto(`${app.url}/docs`);
    // Runs in the page (the project's types have no DOM library, hence the cast).
    const blocksShown = (count: number) =>
      (
        globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }
      ).document.querySelectorAll(".opblock").length >= count;
    await page.waitForFunction(blocksShown, operations.length, { timeout: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("shows every operation of /openapi.json", async () => {
    expect(operations.length).toBeGreaterThan(100);
    // Swagger UI gives each operation block the id operations-<tag>-<operationId>.
    const ids = await page.locator(".opblock").evaluateAll((blocks) => blocks.map((block) => block.id));
    const shown = new Set(ids.map((id) => id.split("-").pop()));
    expect(operations.filter((operation) => !shown.has(operation.operationId))).toEqual([]);
  });

  it("lets every schema be browsed", async () => {
    // Swagger UI renders a long schema list virtually (only the rows in view): scroll it through, collecting titles.
    const titles = new Set<string>();
    const selector = 'section.models article[data-json-schema-level="0"] .json-schema-2020-12__title';
    const scroller = page.locator("section.models .models-scroll");
    type Scrolled = { scrollTop: number; clientHeight: number; scrollHeight: number };
    for (let step = 0; step < 500; step += 1) {
      for (const title of await page.locator(selector).allTextContents()) titles.add(title);
      if ((await scroller.count()) === 0) break;
      const atEnd = await scroller.evaluate((element: Scrolled) => {
        const end = element.scrollTop + element.clientHeight >= element.scrollHeight;
        element.scrollTop += Math.max(1, element.clientHeight / 2);
        return end;
      });
      if (atEnd) break;
      await page.waitForTimeout(20);
    }
    expect(schemaNames.length).toBeGreaterThan(20);
    expect([...titles].sort()).toEqual([...schemaNames].sort());
    // Scrolling through every schema of the grown document takes a loaded machine past the 30 s default.
  }, 120_000);

  it("sends the session token entered under Authorize with Try it out", async () => {
    await page.locator("button.authorize").first().click();
    const scheme = page
      .locator(".auth-container")
      .filter({ has: page.locator("h4 code", { hasText: /^ServiceSession$/ }) });
    await scheme.locator("input").fill(app.adminToken);
    await scheme.locator("button.authorize").click();
    await scheme.locator("button.btn-done").click();

    // Who am I: 200 with the admin's record only if the token was sent.
    const currentUser = operations.find(
      (operation) => operation.path === "/users/current-user" && operation.method === "get",
    );
    expect(currentUser).toBeDefined();
    const block = page.locator(`.opblock[id$="-${currentUser?.operationId}"]`).first();
    await block.locator(".opblock-summary").click();
    await block.getByRole("button", { name: "Try it out" }).click();
    await block.getByRole("button", { name: "Execute" }).click();
    const status = block.locator(".live-responses-table .response .response-col_status").first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.textContent())?.trim()).toBe("200");
    await block
      .locator(".live-responses-table pre", { hasText: '"username": "admin"' })
      .first()
      .waitFor({ timeout: 5_000 });
  });

  it("raised no console or page error and fetched nothing from elsewhere", () => {
    expect(problems).toEqual([]);
  });
});
