// Users and sign-in in the web UI end to end (issue 29): a server started with `--auth users` and a
// default permission of NO_PERMISSIONS, Debian's Chromium signing in, sharing an experiment, making
// and revoking a personal access token, signing out.
import fs from "node:fs";
import path from "node:path";
import { testDatabases, useTestServer } from "@tracker/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, type WatchedPage, screenshots, webDir, requireBuiltUi } from "./browser";

const ADMIN = { username: "admin", password: "admin-password-1234" };
const ALICE = { username: "alice", password: "alice-password-123" };
const BOB = { username: "bob", password: "bob-password-12345" };
const basic = (u: { username: string; password: string }) =>
  `Basic ${Buffer.from(`${u.username}:${u.password}`).toString("base64")}`;

for (const kind of testDatabases()) {
  describe(`sign-in and sharing in Chromium (${kind})`, () => {
    beforeAll(() => {
      requireBuiltUi();
    });
    const server = useTestServer(kind, {
      webDir,
      auth: "users",
      authAdmin: ADMIN,
      authDefaultPermission: "NO_PERMISSIONS",
    });
    let browser: Browser;
    let closeBrowser: () => Promise<void>;
    let watched: WatchedPage;
    let page: Page;

    /** A JSON request with a user's credentials; expects 200 and answers the body. */
    const as = async <T>(
      who: { username: string; password: string } | string,
      method: string,
      route: string,
      body?: unknown,
    ): Promise<{ status: number; body: T }> => {
      const res = await fetch(`${server.url}${route}`, {
        method,
        headers: {
          authorization: typeof who === "string" ? `Bearer ${who}` : basic(who),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as T };
    };
    const shot = async (target: Page, name: string) => {
      if (kind !== "pglite") return;
      fs.mkdirSync(screenshots, { recursive: true });
      await target.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: false });
    };
    /** A fresh context (no cookie) in a colour scheme and width; signed in as `who` when given. */
    const freshPage = async (
      colorScheme: "light" | "dark",
      width: number,
      who?: { username: string; password: string },
    ): Promise<{ context: BrowserContext; page: Page }> => {
      const context = await browser.newContext({ viewport: { width, height: 844 }, colorScheme });
      if (who) {
        const res = await context.request.post(`${server.url}/api/2.0/tracker/session/sign-in`, { data: who });
        expect(res.status()).toBe(200);
      }
      return { context, page: await context.newPage() };
    };
    const signInThroughForm = async (who: { username: string; password: string }) => {
      await page.getByLabel("Username").fill(who.username);
      await page.getByLabel("Password").fill(who.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText(`Signed in as ${who.username}`).waitFor();
    };

    beforeAll(async () => {
      for (const user of [ALICE, BOB])
        expect((await as(ADMIN, "POST", "/api/2.0/tracker/users/create", user)).status).toBe(200);
      expect((await as(ALICE, "POST", "/api/2.0/tracker/experiments/create", { name: "alice-private" })).status).toBe(
        200,
      );
      expect((await as(BOB, "POST", "/api/2.0/tracker/experiments/create", { name: "bob-notes" })).status).toBe(200);
      const launched = await launchBrowser();
      browser = launched.browser;
      closeBrowser = launched.close;
      watched = await openPage(browser);
      page = watched.page;
    });
    afterAll(async () => {
      await watched?.context.close();
      await closeBrowser?.();
    });

    it("shows its own sign-in page, and refuses a wrong password in place", async () => {
      await page.goto(`${server.url}/experiments`);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await shot(page, "sign-in");
      await page.getByLabel("Username").fill(ALICE.username);
      await page.getByLabel("Password").fill("not-her-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").filter({ hasText: "Wrong username or password" }).waitFor();
      for (const [scheme, width] of [
        ["dark", 1280],
        ["light", 390],
        ["dark", 390],
      ] as const) {
        const other = await freshPage(scheme, width);
        await other.page.goto(`${server.url}/`);
        await other.page.getByRole("heading", { name: "Sign in" }).waitFor();
        await shot(other.page, `sign-in${width === 390 ? "-390" : ""}${scheme === "dark" ? "-dark" : ""}`);
        await other.context.close();
      }
    });

    it("signs in and lists only the experiments the user may read", async () => {
      await signInThroughForm(ALICE);
      await page.getByRole("link", { name: "alice-private", exact: true }).waitFor();
      expect(await page.getByRole("link", { name: "bob-notes", exact: true }).count()).toBe(0);
      // The session cookie is HttpOnly: the page's scripts cannot read it.
      expect(await page.evaluate(() => document.cookie)).not.toContain("tracker_session");
      const cookies = await watched.context.cookies();
      expect(cookies.find((c) => c.name === "tracker_session")).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    });

    it("shares an experiment with another user, who then sees it", async () => {
      await page.getByRole("link", { name: "Sharing of alice-private" }).click();
      await page.getByRole("heading", { name: "Who may use this experiment" }).waitFor();
      await page.getByRole("cell", { name: "alice", exact: true }).waitFor();
      const form = page.getByRole("form", { name: "Grant a permission" });
      await form.getByLabel("Username").fill(BOB.username);
      await form.getByLabel("Permission").selectOption("READ");
      await form.getByRole("button", { name: "Grant" }).click();
      await page.getByRole("cell", { name: "bob", exact: true }).waitFor();
      await shot(page, "experiment-sharing");
      const bobSees = await as<{ experiments?: Array<{ name: string }> }>(
        BOB,
        "GET",
        "/api/2.0/tracker/experiments/search?max_results=100",
      );
      expect(bobSees.body.experiments?.map((e) => e.name)).toContain("alice-private");
      // Changed to EDIT in place, through MLflow's permissions/update.
      await page.getByLabel("Permission of bob").selectOption("EDIT");
      await expect
        .poll(
          async () =>
            (
              await as<{ experiment_permission?: { permission: string } }>(
                ALICE,
                "GET",
                `/api/2.0/tracker/experiments/permissions/get?experiment_id=${await experimentId("alice-private")}&username=bob`,
              )
            ).body.experiment_permission?.permission,
        )
        .toBe("EDIT");
    });
    const experimentId = async (name: string) =>
      (
        await as<{ experiment: { experiment_id: string } }>(
          ADMIN,
          "GET",
          `/api/2.0/tracker/experiments/get-by-name?experiment_name=${name}`,
        )
      ).body.experiment.experiment_id;

    it("creates a token shown once, which works until it is revoked", async () => {
      await page.getByRole("link", { name: "alice", exact: true }).click();
      await page.getByRole("heading", { name: "Personal access tokens" }).waitFor();
      const form = page.getByRole("form", { name: "Create a token" });
      await form.getByLabel("Name").fill("laptop script");
      await form.getByRole("button", { name: "Create token" }).click();
      const token = (await page.getByTestId("new-token").textContent()) ?? "";
      expect(token).toMatch(/^trk_/);
      await shot(page, "tokens-created");
      const used = await as<{ user: { username: string } }>(token, "GET", "/api/2.0/tracker/users/current");
      expect(used).toMatchObject({ status: 200, body: { user: { username: "alice" } } });
      await page.getByRole("button", { name: "Done" }).click();
      expect(await page.getByTestId("new-token").count()).toBe(0);
      const row = page.getByRole("row").filter({ hasText: "laptop script" });
      await row.getByRole("button", { name: "Revoke" }).click();
      await row.getByRole("button", { name: "Yes, revoke" }).click();
      await row.getByRole("cell", { name: "revoked" }).waitFor();
      const refused = await as<{ error_code: string }>(token, "GET", "/api/2.0/tracker/users/current");
      expect(refused).toMatchObject({ status: 401, body: { error_code: "UNAUTHENTICATED" } });
      await shot(page, "tokens");
      for (const [scheme, width] of [
        ["dark", 1280],
        ["light", 390],
        ["dark", 390],
      ] as const) {
        const other = await freshPage(scheme, width, ALICE);
        await other.page.goto(`${server.url}/account`);
        await other.page.getByRole("cell", { name: "laptop script" }).waitFor();
        // Dates break only between the date and the time: at most two lines (at 390 px they took three).
        const lines = await other.page
          .getByRole("row")
          .filter({ hasText: "laptop script" })
          .getByRole("cell")
          .evaluateAll((cells) =>
            cells.slice(1, 4).map((cell) => {
              // The lines the cell's text takes: the distinct tops of its text's line boxes.
              const tops = new Set<number>();
              const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
              for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const range = document.createRange();
                range.selectNodeContents(node);
                for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
              }
              return tops.size;
            }),
          );
        expect(lines, `lines of the token's dates at ${width} px`).toEqual([
          expect.any(Number),
          expect.any(Number),
          expect.any(Number),
        ]);
        for (const n of lines) expect(n).toBeLessThanOrEqual(width === 390 ? 2 : 1);
        // And the whole table fits the screen: no column hidden behind a sideways scroll.
        const table = await other.page.getByRole("table").evaluate((t) => t.getBoundingClientRect().right);
        expect(table).toBeLessThanOrEqual(width);
        await shot(other.page, `tokens${width === 390 ? "-390" : ""}${scheme === "dark" ? "-dark" : ""}`);
        await other.context.close();
      }
    });

    it("signs out; the other user signs in and sees the shared experiment", async () => {
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      expect((await watched.context.cookies()).find((c) => c.name === "tracker_session")).toBeUndefined();
      // The API is closed again for this browser.
      // ... and its 401 carries no Basic challenge, which would open the browser's own prompt.
      const after = await page.evaluate(async () => {
        const res = await fetch("/api/2.0/tracker/users/current");
        return { status: res.status, challenge: res.headers.get("www-authenticate") };
      });
      expect(after).toEqual({ status: 401, challenge: 'Session realm="tracker"' });
      await signInThroughForm(BOB);
      await page.getByRole("link", { name: "alice-private", exact: true }).waitFor();
      await page.getByRole("link", { name: "bob-notes", exact: true }).waitFor();
      expect(await page.getByRole("link", { name: "Users" }).count()).toBe(0);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
    });

    it("gives admins a users page: create, make admin, reset a password, delete", async () => {
      await signInThroughForm(ADMIN);
      await page.getByRole("link", { name: "Users" }).click();
      await page.getByRole("heading", { name: "Users" }).waitFor();
      const form = page.getByRole("form", { name: "Create a user" });
      await form.getByLabel("Username").fill("carol");
      await form.getByLabel("Password (at least 12 characters)").fill("carol-password-1");
      await form.getByRole("button", { name: "Create user" }).click();
      await page.getByRole("cell", { name: "carol", exact: true }).waitFor();
      // A controlled checkbox: it shows the server's state once the change is stored.
      await page.getByLabel("carol is an admin").click();
      await expect
        .poll(
          async () =>
            (await as<{ user: { is_admin: boolean } }>(ADMIN, "GET", "/api/2.0/tracker/users/get?username=carol")).body
              .user.is_admin,
        )
        .toBe(true);
      await expect.poll(() => page.getByLabel("carol is an admin").isChecked()).toBe(true);
      const row = page.getByRole("row").filter({ hasText: "carol" });
      await row.getByRole("button", { name: "Reset password" }).click();
      await row.getByLabel("New password of carol").fill("carol-password-2");
      await row.getByRole("button", { name: "Set password" }).click();
      await page.getByRole("status").filter({ hasText: "Password of carol reset" }).waitFor();
      expect((await as(ADMIN, "GET", "/api/2.0/tracker/users/current")).status).toBe(200);
      expect(
        (await as({ username: "carol", password: "carol-password-2" }, "GET", "/api/2.0/tracker/users/current")).status,
      ).toBe(200);
      await shot(page, "users");
      await row.getByRole("button", { name: "Delete" }).click();
      await row.getByRole("button", { name: "Yes, delete" }).click();
      await expect.poll(() => page.getByRole("cell", { name: "carol", exact: true }).count()).toBe(0);
      expect(watched.problems.filter((p) => /Content Security Policy|Refused to/i.test(p))).toEqual([]);
    });
  });
}
