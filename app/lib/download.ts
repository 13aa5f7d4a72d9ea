// Downloads from /api routes. Inside the Shopify admin a plain link or
// navigation carries no session token (App Bridge adds it to fetch only), so
// the file is fetched and saved from memory. The files served this way are
// small: an EOD report is one row per day and store, a special-order log one
// pulled file.

/** The file name of a content-disposition header (RFC 6266: filename* first). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? "");
  if (extended) return decodeURIComponent(extended[1]);
  return /filename="([^"]+)"/i.exec(disposition ?? "")?.[1] ?? fallback;
}

export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`download failed: ${response.status}`);
  const blob = await response.blob();
  const objectUrl = URL.createObjectURL(blob);
  const anchor = document.createElement("a");
  anchor.href = objectUrl;
  anchor.download = fileNameOf(response.headers.get("content-disposition"), fallbackName);
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
}
