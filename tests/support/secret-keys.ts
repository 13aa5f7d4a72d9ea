// For the tests of secrets at rest: which APP_SECRET_KEY (and previous key) the app
// uses, switched in this process and put back as they were afterwards.
import { reloadEnv } from "../../app/env.server";
import { resetSecretKeyForTests } from "../../app/lib/secrets.server";

const saved = { current: process.env.APP_SECRET_KEY, previous: process.env.APP_SECRET_KEY_PREVIOUS };

export function useKeys(current: Buffer, previous?: Buffer) {
  process.env.APP_SECRET_KEY = current.toString("base64");
  if (previous) process.env.APP_SECRET_KEY_PREVIOUS = previous.toString("base64");
  else delete process.env.APP_SECRET_KEY_PREVIOUS;
  reloadEnv();
  resetSecretKeyForTests();
}

/** The keys as they were when this module was first loaded. */
export function restoreKeys() {
  for (const [name, value] of [
    ["APP_SECRET_KEY", saved.current],
    ["APP_SECRET_KEY_PREVIOUS", saved.previous],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadEnv();
  resetSecretKeyForTests();
}
