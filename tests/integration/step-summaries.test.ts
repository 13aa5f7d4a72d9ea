// What the drop-ship steps tell staff (issue 28 item 8, LOWs): Send Ship
// Requests' summary names the requests it refused (an empty address) instead of
// hiding them; a vendor's name is said once in a step's problems, not twice;
// Process Ship Responses' progress moves while it runs instead of staying at 0 %.
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { populateShipRequests } from "../../app/dropship/flow/populate-requests.server";
import { populateShipResponses, storeIncomingFiles } from "../../app/dropship/flow/populate-responses.server";
import { processShipResponses } from "../../app/dropship/flow/process-responses.server";
import { sendShipRequests } from "../../app/dropship/flow/send-requests.server";
import { withFeedProgress } from "../../app/feeds/progress.server";
import { encryptSecret, vendorPasswordBinding } from "../../app/lib/secrets.server";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { createPendingAssignment } from "../support/pending-assignment";
import { useVendorServers } from "../support/vendor-servers";

const PASSWORD = "Summaries-Pa55";
const tag = `SS${randomBytes(2).toString("hex").toUpperCase()}`;
const servers = useVendorServers("step-summaries", PASSWORD);
let vendors = 0;

const createVendor = (overrides = {}) =>
  createLoopbackVendor({ root: servers.root, port: servers.sftp.port, hostKey: servers.sftp.hostKey, password: PASSWORD }, `${tag}${++vendors}`, {
    edi_format: 0,
    regex_format: "\\.(edi|csv)$",
    ...overrides,
  });

afterAll(async () => {
  await prisma.vendor.updateMany({ where: { store_id: { startsWith: tag } }, data: { enabled: 0 } });
});

describe("step summaries and problems", () => {
  it("Send Ship Requests' summary names the requests refused for an empty address", async () => {
    const vendor = await createVendor();
    await createPendingAssignment(prisma, {
      orderId: `${Date.now() % 1_000_000}1`,
      shopifyOrderId: "991001",
      sku: `${tag}-A`,
      qty: 1,
      storeId: vendor.store_id,
      vendorName: vendor.name,
      street: "",
    });
    await populateShipRequests();
    const sent = await sendShipRequests({ vendorId: vendor.id });
    expect(sent.message).toBe(
      "0 files sent to 1 vendor, carrying 0 new ship requests; 1 ship request refused: they cannot be sent as they are (see the Drop Shipping Logs).",
    );
  });

  it("names a vendor once in a step's problems", async () => {
    const created = await createVendor();
    const vendor = await prisma.vendor.update({
      where: { id: created.id },
      data: { sftp_pass: encryptSecret("not-the-password", vendorPasswordBinding(created.id)) },
    });
    const populated = await populateShipResponses({ vendorId: vendor.id });
    expect(populated.error).toBe(true);
    expect(populated.problems![0]).toMatch(new RegExp(`^${vendor.name}: Wrong user name or password`));
    expect(populated.problems![0]).not.toContain(`${vendor.name}: ${vendor.name}:`);
    expect(JSON.stringify(populated.problemCodes![0])).not.toContain('"transport.labelled"');
  });

  it("moves Process Ship Responses' progress as files are done", async () => {
    const vendor = await createVendor();
    await storeIncomingFiles(
      vendor,
      [1, 2, 3].map((n) => ({ name: `odd-${n}.csv`, path: `/x/odd-${n}.csv`, content: Buffer.from(`not,a,known\nfile,${n},x\n`), transactionSet: null })),
    );
    const reported: Array<Record<string, unknown>> = [];
    await withFeedProgress(
      async (patch) => {
        reported.push(patch);
      },
      () => processShipResponses({ vendorId: vendor.id }),
    );
    const bars = reported.filter((patch) => patch.unit === "files");
    expect(bars.at(-1)).toMatchObject({ done: 3, total: 3 });
    expect(bars.map((bar) => bar.done)).toEqual(expect.arrayContaining([1, 2]));
  });
});
