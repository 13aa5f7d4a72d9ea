// What a browser receives over the wire (issue 31, D245): every compressible
// answer in brotli or gzip as it asks, pages while they stream included; the
// texts of a language under a versioned URL cached for good; scripts by their
// hashed names. Raw node:http, so the bytes are seen as sent, not as a client
// unpacks them.
import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { useAppWithDatabase } from "../support/app-with-database";

const suite = useAppWithDatabase("compression", { SEED_DEMO_DATA: "1" });

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

function getRaw(path: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${suite.app.url}${path}`, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

const unpacked = (answer: RawAnswer) =>
  answer.headers["content-encoding"] === "br"
    ? brotliDecompressSync(answer.bytes).toString()
    : answer.headers["content-encoding"] === "gzip"
      ? gunzipSync(answer.bytes).toString()
      : answer.bytes.toString();

describe("compression", () => {
  it("a page streams in brotli to a browser that takes it, and is several times smaller", async () => {
    const plain = await getRaw("/dropship/logs/");
    const packed = await getRaw("/dropship/logs/", "gzip, deflate, br");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(packed.status).toBe(200);
    expect(packed.headers["content-encoding"]).toBe("br");
    expect(packed.headers.vary).toMatch(/Accept-Encoding/i);
    const html = unpacked(packed);
    expect(html).toContain("<title>");
    expect(html).toContain("PO Number"); // the grid, rendered on the server, all there
    expect(packed.bytes.length * 3).toBeLessThan(plain.bytes.length);
  });

  it("JSON answers, scripts and styles are compressed; gzip for a client without brotli", async () => {
    const json = await getRaw("/api/dropship_log?page=1", "gzip");
    expect(json.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(unpacked(json)).data.current_page).toBe(1);

    const html = unpacked(await getRaw("/", "br"));
    const script = html.match(/\/assets\/[\w.-]+\.js/)![0];
    const style = html.match(/\/assets\/[\w.-]+\.css/)![0];
    for (const asset of [script, style]) {
      const answer = await getRaw(asset, "br");
      expect(answer.headers["content-encoding"], asset).toBe("br");
      expect(answer.headers["cache-control"], asset).toMatch(/immutable/);
    }
  });
});

describe("translations", () => {
  it("the page preloads its language's texts by version; that URL is cached for good, others for an hour", async () => {
    const html = unpacked(await getRaw("/?locale=de", "br"));
    const link = html.match(/<link rel="preload" as="fetch" crossorigin="anonymous" href="([^"]+)" data-locales-version="(\w+)"/);
    expect(link, "the preload link in the head").not.toBeNull();
    const [, href, version] = link!;
    expect(href).toBe(`/locales/de/common.json?v=${version}`);
    expect(html.indexOf(href)).toBeLessThan(html.indexOf("</head>"));

    const texts = await getRaw(href, "br");
    expect(texts.status).toBe(200);
    expect(texts.headers["content-encoding"]).toBe("br");
    expect(texts.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(JSON.parse(unpacked(texts)).home.title).toBe("Startseite");

    // Another version (a page rendered before a deploy) still gets texts, but not for good.
    const stale = await getRaw("/locales/de/common.json?v=000000000000");
    expect(stale.status).toBe(200);
    expect(stale.headers["cache-control"]).toBe("public, max-age=3600");
  });
});
