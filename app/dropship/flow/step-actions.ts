// The Test page's buttons, in the order of the flow (shared by page and server).
export const TEST_PAGE_ACTIONS = ["populateRequests", "sendRequests", "populateResponses", "processResponses", "clearCompletedRequests"] as const;
