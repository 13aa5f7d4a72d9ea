// The Transmission Test's actions, shared by the Tools page and the server.
export const TRANSMISSION_TEST_ACTIONS = ["test-connection", "list-folders", "verify-upload"] as const;
export type TransmissionTestAction = (typeof TRANSMISSION_TEST_ACTIONS)[number];
