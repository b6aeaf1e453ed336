// The web page in a real browser: Debian's chromium driven by Playwright (docs/web.md).
//
//   JEWELBOT=target/debug/jewelbot node --test web/tests/browser/page.test.mjs
//
// With SCREENSHOTS=DIR it also writes the page's screenshots there (docs/ keeps them).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const ROOT = resolve(import.meta.dirname, "../../..");
const JEWELBOT = resolve(ROOT, process.env.JEWELBOT || "target/debug/jewelbot");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const SCREENSHOTS = process.env.SCREENSHOTS;
const LIMIT = 60_000;

/// Starts `jewelbot ARGS` and resolves with the process and the URL it prints.
function start(args) {
  const child = spawn(JEWELBOT, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  let stdout = "";
  child.stdout.on("data", (d) => { stdout += d; });
  const url = new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL: ${stderr}`)), LIMIT);
    child.stderr.on("data", (d) => {
      stderr += d;
      const found = /(http:\/\/[^\s)]+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolveUrl(found[1].replace(/[.)]$/, ""));
      }
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  // Observed only when awaited: a run without --serve prints no URL.
  url.catch(() => {});
  const exited = new Promise((resolveExit) => child.on("exit", (code) => resolveExit(code)));
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

let browser;
let served;
let holderUrl;
let base;
const dir = mkdtempSync(join(tmpdir(), "jewelbot-web-"));

before(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  served = start(["serve", "--port", "0", "--state-dir", dir, "--screenshot-dir", dir]);
  holderUrl = await served.url;
  base = holderUrl.split("?")[0];
});

after(async () => {
  await browser?.close();
  served?.child.kill("SIGINT");
});

/// A page opened at `url`, once its first picture has come.
async function open(url, context) {
  const page = await (context || (await browser.newContext({ viewport: { width: 1280, height: 900 } }))).newPage();
  await page.goto(url);
  await page.waitForFunction(() => Number(document.body.dataset.pictures || 0) > 0, null, { timeout: LIMIT });
  return page;
}

async function columns(page) {
  return page.evaluate(() => {
    for (const figure of document.querySelectorAll("#figures .figure")) {
      if (figure.querySelector(".label").textContent === "columns") {
        return Number(figure.querySelector(".value").textContent.replaceAll(",", ""));
      }
    }
    return null;
  });
}

test("the page loads, its picture changes and the dashboard counts the columns", async () => {
  const page = await open(holderUrl);
  assert.equal(new URL(page.url()).search, "", "the token leaves the address bar");
  assert.match(await page.textContent("#who"), /you hold the controls/);
  const first = await page.locator("#picture").screenshot();
  await page.waitForTimeout(1000);
  const second = await page.locator("#picture").screenshot();
  assert.notDeepEqual(first, second, "the picture did not change in a second");
  await page.waitForFunction(() => {
    const figure = [...document.querySelectorAll("#figures .figure")]
      .find((f) => f.querySelector(".label").textContent === "columns");
    return figure && Number(figure.querySelector(".value").textContent.replaceAll(",", "")) >= 1;
  }, null, { timeout: LIMIT });
  const before = await columns(page);
  await page.waitForFunction((n) => {
    const figure = [...document.querySelectorAll("#figures .figure")]
      .find((f) => f.querySelector(".label").textContent === "columns");
    return Number(figure.querySelector(".value").textContent.replaceAll(",", "")) > n;
  }, before, { timeout: LIMIT });
  assert.ok((await columns(page)) > before);
  if (SCREENSHOTS) {
    await page.click("#fields .field");
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(SCREENSHOTS, "web-page.png") });
  }
  await page.close();
});

test("clicking fast changes the mode, and the keys work as in the window", async () => {
  const page = await open(holderUrl);
  const fast = page.locator('button[data-option="mode"][data-value="fast"]');
  const normal = page.locator('button[data-option="mode"][data-value="normal"]');
  await fast.click();
  await page.waitForFunction(() => document.querySelector('button[data-option="mode"][data-value="fast"]').classList.contains("on"), null, { timeout: LIMIT });
  await page.waitForFunction(() => /fast/.test(document.querySelector("#status").textContent), null, { timeout: LIMIT });
  await normal.click();
  await page.waitForFunction(() => document.querySelector('button[data-option="mode"][data-value="normal"]').classList.contains("on"), null, { timeout: LIMIT });
  // P pauses, as in the window; the bar says so; P again goes on.
  await page.keyboard.press("p");
  await page.waitForFunction(() => /paused/.test(document.querySelector("#bar").textContent), null, { timeout: LIMIT });
  await page.keyboard.press("p");
  await page.waitForFunction(() => !/paused/.test(document.querySelector("#bar").textContent), null, { timeout: LIMIT });
  // F5 saves the state to the slot, in the state directory, as the window's F5.
  await page.keyboard.press("F5");
  await page.waitForFunction(() => /saved slot 1/.test(document.querySelector("#message").textContent), null, { timeout: LIMIT });
  await page.close();
});

test("a gamepad on the page presses the NES buttons while you play", async () => {
  const page = await open(holderUrl);
  // A standard gamepad holding Start (button 9), as the Gamepad API reports one.
  await page.evaluate(() => {
    const buttons = Array.from({ length: 17 }, (_, i) => ({ pressed: i === 9, touched: false, value: i === 9 ? 1 : 0 }));
    const pad = { id: "test pad", index: 0, connected: true, mapping: "standard", axes: [0, 0, 0, 0], buttons };
    navigator.getGamepads = () => [pad];
  });
  // The AI holds the controller: take it (Space), then Start shows held in the band.
  await page.keyboard.press("Space");
  await page.waitForFunction(() => /you play/.test(document.querySelector("#bar").textContent), null, { timeout: LIMIT });
  await page.waitForFunction(() => [...document.querySelectorAll("#pad span.held")].some((s) => s.textContent === "Start"), null, { timeout: LIMIT });
  // Its North button (3) hands control back to the AI.
  await page.evaluate(() => {
    const pad = navigator.getGamepads()[0];
    pad.buttons[9] = { pressed: false, touched: false, value: 0 };
    pad.buttons[3] = { pressed: true, touched: false, value: 1 };
  });
  await page.waitForFunction(() => /plays/.test(document.querySelector("#bar").textContent) && !/you play/.test(document.querySelector("#bar").textContent), null, { timeout: LIMIT });
  await page.close();
});

test("a viewer without the token cannot press anything", async () => {
  const holder = await open(holderUrl);
  const viewer = await open(base);
  assert.match(await viewer.textContent("#who"), /watching/);
  assert.equal(await viewer.locator("#pause-button").isDisabled(), true);
  assert.equal(await viewer.locator('button[data-option="mode"][data-value="fast"]').isDisabled(), true);
  await viewer.locator("#pause-button").click({ force: true });
  await viewer.keyboard.press("p");
  await viewer.keyboard.press("Space");
  // The page's own socket, asked directly, is refused with the reason.
  const refused = await viewer.evaluate(() => new Promise((done) => {
    const socket = new WebSocket(`ws://${location.host}/ws`);
    socket.onopen = () => socket.send(JSON.stringify({ type: "action", action: "pause" }));
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "error") done(m.error);
    };
  }));
  assert.match(refused, /holding the controls/);
  await holder.waitForTimeout(700);
  const bar = await holder.textContent("#bar");
  assert.doesNotMatch(bar, /paused/);
  assert.match(bar, /plays/);
  await holder.close();
  await viewer.close();
});

test("a page of another site cannot open the game's socket", async () => {
  const foreign = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<!doctype html><title>elsewhere</title>");
  });
  await new Promise((done) => foreign.listen(0, "127.0.0.1", done));
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${foreign.address().port}/`);
  const target = base.replace("http://", "ws://") + "ws";
  const outcome = await page.evaluate((url) => new Promise((done) => {
    const socket = new WebSocket(url);
    socket.onopen = () => done("opened");
    socket.onerror = () => done("refused");
  }), target);
  assert.equal(outcome, "refused");
  // The server answers its plain request with 403, naming why.
  const status = await page.evaluate(async (url) => {
    try {
      const r = await fetch(url, { mode: "no-cors" });
      return r.type;
    } catch (e) {
      return "blocked";
    }
  }, base);
  assert.ok(["opaque", "blocked"].includes(status));
  await page.close();
  foreign.close();
});

test("a headless run watched from the page plays the game it plays unwatched", async () => {
  const length = "6000";
  const plain = join(dir, "plain.fm2");
  const watched = join(dir, "watched.fm2");
  const alone = start(["run", "--headless", "--mode", "fast", "--frames", length, "--record-movie", plain, "--json"]);
  assert.equal(await alone.exited, 0);
  const run = start(["run", "--headless", "--mode", "fast", "--frames", length, "--record-movie", watched, "--json", "--serve", "0"]);
  const page = await open(await run.url);
  assert.match(await page.textContent("#who"), /watched only/);
  assert.equal(await page.locator("#controls").isHidden(), true);
  await page.waitForFunction(() => !document.querySelector("#run").hidden, null, { timeout: LIMIT });
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, "web-page-headless.png") });
  assert.equal(await run.exited, 0);
  await page.waitForFunction(() => /not connected/.test(document.querySelector("#connection").textContent), null, { timeout: LIMIT });
  assert.ok(existsSync(watched));
  // The frames' buttons (each recording's header has a guid of its own).
  const frames = (path) => readFileSync(path, "utf8").split("\n").filter((l) => l.startsWith("|"));
  assert.deepEqual(frames(watched), frames(plain), "the watched run's movie differs");
  const figures = (o) => {
    const s = JSON.parse(o.output().stdout);
    return [s.last_frame, s.columns_placed, s.jewels_total, s.score_total, s.game_overs];
  };
  assert.deepEqual(figures(run), figures(alone));
  await page.close();
});
