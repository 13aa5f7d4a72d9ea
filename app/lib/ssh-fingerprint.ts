// An SSH host key fingerprint as OpenSSH prints it: "SHA256:" and the sha256
// of the key in base64 without padding (43 characters). Staff type one to pin
// a vendor's key; AS400_HOST_KEY holds the AS400's.

/** The fingerprint in its usual form, or null when it is not "SHA256:" + base64 of 32 bytes. Padding and spaces around are accepted. */
export function normaliseSshFingerprint(value: string): string | null {
  const match = /^SHA256:([A-Za-z0-9+/]{43})=?$/.exec(value.trim());
  if (!match) return null;
  // 43 characters carry 258 bits: the last character's two low bits must be 0 for exactly 32 bytes.
  if (Buffer.from(match[1], "base64").length !== 32 || Buffer.from(match[1], "base64").toString("base64").replace(/=+$/, "") !== match[1]) return null;
  return `SHA256:${match[1]}`;
}
