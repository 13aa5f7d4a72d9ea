// Fingerprints pinned in a vendor's `sftp_host_key` (and AS400_HOST_KEY): an SSH host key's
// for SFTP, a TLS certificate's for FTPS. Both are "SHA256:" + unpadded base64 of a SHA-256,
// the form OpenSSH prints, so the field reads the same whatever the mechanism.
import { createHash } from "node:crypto";

/** "SHA256:" + unpadded base64 of the SHA-256 of `bytes` (a raw SSH key blob, a certificate's DER). */
export function sha256Fingerprint(bytes: Buffer): string {
  return `SHA256:${createHash("sha256").update(bytes).digest("base64").replace(/=+$/, "")}`;
}

/**
 * The form we store and show ("SHA256:" + unpadded base64 of 32 bytes), from either form people
 * paste: OpenSSH's (padding and spaces tolerated) or OpenSSL's hexadecimal pairs. Null otherwise.
 * The one parser of typed pins: staff's (the vendor form) and AS400_HOST_KEY.
 */
export function normaliseFingerprint(value: string): string | null {
  const bare = value.trim().replace(/^sha256( fingerprint)?[:=]\s*/i, "");
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(bare) && !/^([0-9a-f]{2}:){31}[0-9a-f]{2}$/i.test(bare) && !/^[0-9a-f]{64}$/i.test(bare)) return null;
  const digest = digestOf(bare);
  if (!digest) return null;
  const base64 = digest.toString("base64").replace(/=+$/, "");
  // 43 characters carry 258 bits: one that does not round-trip is not exactly 32 bytes.
  if (/^[A-Za-z0-9+/]{43}=?$/.test(bare) && bare.replace(/=$/, "") !== base64) return null;
  return `SHA256:${base64}`;
}

/**
 * Compares fingerprints as people paste them: with or without "SHA256:" and base64 padding,
 * or as the hexadecimal pairs OpenSSL prints ("AB:CD:…", from `openssl x509 -fingerprint -sha256`).
 */
export function sameFingerprint(a: string, b: string): boolean {
  const digestA = digestOf(a);
  const digestB = digestOf(b);
  return digestA !== null && digestB !== null && digestA.equals(digestB);
}

function digestOf(fingerprint: string): Buffer | null {
  const bare = fingerprint.trim().replace(/^sha256( fingerprint)?[:=]\s*/i, "");
  const hex = bare.replace(/:/g, "");
  if (/^[0-9a-f]{64}$/i.test(hex) && (bare.includes(":") || bare.length === 64)) return Buffer.from(hex, "hex");
  const digest = Buffer.from(bare.replace(/=+$/, ""), "base64");
  return digest.length === 32 ? digest : null;
}
