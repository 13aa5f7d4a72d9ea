// A vendor's EDI strictness end to end (issue 28 item 6, D219): the vendor's
// real 856 with the state written out in N402, and an 846 with a five-character
// unit in QTY03, over the loopback SFTP server, the real steps and database.
// Lenient (the default): the shipment and the stock are recorded, our 997
// answers AK5 E with the AK4, and the log warns. Strict: refused as before.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { answerPurchaseOrderFile } from "../../app/dropship/tools/vendor-answers";
import { populateShipRequests } from "../../app/dropship/flow/populate-requests.server";
import { populateShipResponses } from "../../app/dropship/flow/populate-responses.server";
import { processShipResponses } from "../../app/dropship/flow/process-responses.server";
import { sendShipRequests } from "../../app/dropship/flow/send-requests.server";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { createPendingAssignment } from "../support/pending-assignment";
import { useVendorServers } from "../support/vendor-servers";
import { isaSegment } from "../support/x12-interchange";

const PASSWORD = "Strictness-Pa55";
const tag = `ST${randomBytes(2).toString("hex").toUpperCase()}`;
const servers = useVendorServers("edi-strictness", PASSWORD);
let vendors = 0;

const dir = (...parts: string[]) => path.join(servers.root, ...parts);
const folderOf = (vendor: Vendor, which: "sftp_incoming_folder" | "sftp_outcoming_folder") => dir(vendor[which]!.slice(1));

async function createVendor(strictness?: "strict" | "lenient") {
  const storeId = `${tag}${++vendors}`;
  return createLoopbackVendor({ root: servers.root, port: servers.sftp.port, password: PASSWORD }, storeId, {
    edi_format: 1,
    edi_identifier: `${storeId}EDI`,
    edi_qualifier: "ZZ",
    regex_format: "\\.edi$",
    edi997_enabled: 1,
    edi846_enabled: 1,
    ...(strictness ? { edi_strictness: strictness } : {}),
  });
}

/** Our 850 for a new order of `sku`, answered by the vendor: its 856 (state written out in N402) waits in its folder. */
async function shipNoticeWithLongState(vendor: Vendor, sku: string) {
  await createPendingAssignment(prisma, {
    orderId: `${tag}${vendors}`,
    shopifyOrderId: String(8800000 + vendors),
    sku,
    qty: 1,
    storeId: vendor.store_id,
    vendorName: vendor.name,
  });
  await populateShipRequests();
  await sendShipRequests({ vendorId: vendor.id });
  const outbound = folderOf(vendor, "sftp_outcoming_folder");
  const [ours] = readdirSync(outbound).filter((name) => /^(850|PO)_/.test(name));
  const answer = answerPurchaseOrderFile(vendor as never, ours, readFileSync(path.join(outbound, ours)), { now: new Date(), controlNumberStart: 100 });
  if ("error" in answer) throw new Error(answer.error);
  const notice = [...answer.immediate, ...answer.later].find((file) => file.name.startsWith("856"))!;
  const text = notice.content.toString();
  const element = text[3];
  const terminator = text[105];
  // N1/N4 of the ship-to after the shipment's HL, its state as some vendors write it; SE01 counts them.
  const shipTo = [`N1${element}ST${element}Ada Lovelace`, `N4${element}Chicago${element}Illinois${element}60601${element}US`].join(terminator) + terminator;
  const hl = text.indexOf(`HL${element}1${element}`);
  const afterHl = text.indexOf(terminator, hl) + terminator.length;
  const withState = (text.slice(0, afterHl) + shipTo + text.slice(afterHl)).replace(
    new RegExp(`SE\\${element}(\\d+)\\${element}`),
    (_, n: string) => `SE${element}${Number(n) + 2}${element}`,
  );
  writeFileSync(path.join(folderOf(vendor, "sftp_incoming_folder"), notice.name), withState);
  return withState;
}

/** An 846 file in the vendor's folder: one set per [sku, quantity, unit, ST02], in one group. */
function stockAdvice(vendor: Vendor, sets: Array<[string, number, string, string]>, iea02 = "000000001") {
  const segments = [
    isaSegment({ sender: `${vendor.edi_identifier}`.padEnd(15), receiver: "OURCOMPANY     " }),
    `GS*IB*${vendor.edi_identifier}*OURCOMPANY*20240501*1200*7*X*004010`,
    ...sets.flatMap(([sku, quantity, unit, control]) => [
      `ST*846*${control}`,
      "BIA*00*DD*INV1*20240501",
      `LIN**SK*${sku}`,
      `QTY*33*${quantity}*${unit}`,
      "CTT*1",
      `SE*6*${control}`,
    ]),
    `GE*${sets.length}*7`,
    `IEA*1*${iea02}`,
  ];
  writeFileSync(path.join(folderOf(vendor, "sftp_incoming_folder"), "846_stock.edi"), segments.join("~") + "~");
}
/** An 846 of one item whose QTY03 unit has five characters (the maximum is 2). */
const stockAdviceWithLongUnit = (vendor: Vendor, sku: string) => stockAdvice(vendor, [[sku, 7, "EACHS", "0001"]]);

async function receive(vendor: Vendor) {
  await populateShipResponses({ vendorId: vendor.id });
  await processShipResponses({ vendorId: vendor.id });
}

/** Our 997s uploaded to the vendor, as text. */
const our997s = (vendor: Vendor) =>
  readdirSync(folderOf(vendor, "sftp_outcoming_folder"))
    .filter((name) => name.startsWith("997_"))
    .map((name) => readFileSync(path.join(folderOf(vendor, "sftp_outcoming_folder"), name), "utf8"));

const shipments = (vendor: Vendor) => prisma.dropshipResponse.count({ where: { response_type: "856", vendor_id: vendor.id } });
const stockOf = async (vendor: Vendor, sku: string) =>
  (await prisma.sourceStock.findUnique({ where: { source_code_sku: { source_code: vendor.store_id, sku } } }))?.quantity ?? null;

describe("EDI strictness per vendor (D219)", () => {
  it("a lenient vendor (the default): the 856 with N402 'Illinois' records the shipment, answered AK5 E with the AK4, and the log warns", async () => {
    const vendor = await createVendor();
    expect(vendor.edi_strictness).toBe("lenient");
    await shipNoticeWithLongState(vendor, `${tag}-A`);
    await receive(vendor);
    expect(await shipments(vendor)).toBe(1);
    const answer = our997s(vendor).find((text) => text.includes("AK2*856"))!;
    expect(answer).toMatch(/AK3\*N4\*\d+\*\*8~AK4\*2\*\*5\*Illinois~AK5\*E~AK9\*E\*1\*1\*1~/);
    const warning = await prisma.dropshipLog.findFirstOrThrow({ where: { vendor_id: vendor.id, status: "warning", message: { contains: "N402" } } });
    expect(warning.message).toMatch(/applied with 1 fault noted, answered as accepted with errors: segment \d+ \(N4\): N402 is longer than its maximum of 2/);
  });

  it("a strict vendor: the same 856 is refused, nothing recorded, the 997 rejects it", async () => {
    const vendor = await createVendor("strict");
    await shipNoticeWithLongState(vendor, `${tag}-B`);
    await receive(vendor);
    expect(await shipments(vendor)).toBe(0);
    expect(our997s(vendor).find((text) => text.includes("AK2*856"))).toMatch(/AK4\*2\*\*5\*Illinois~AK5\*R\*5~AK9\*R\*1\*1\*0~/);
    expect(await prisma.transmission.findFirstOrThrow({ where: { vendor_id: vendor.id, direction: "in", file_name: { startsWith: "856" } } })).toMatchObject({
      status: "failed",
    });
  });

  it("an 846 whose QTY03 has 5 characters updates the stock under lenient, not under strict", async () => {
    const lenient = await createVendor("lenient");
    stockAdviceWithLongUnit(lenient, `${tag}-S`);
    await receive(lenient);
    expect(await stockOf(lenient, `${tag}-S`)).toBe(7);
    // The 846 is read as a stream: its 997 names the element, without a copy of the value.
    expect(our997s(lenient).join("")).toMatch(/AK3\*QTY\*4\*\*8~AK4\*3\*\*5~AK5\*E~AK9\*E\*1\*1\*1~/);

    const strict = await createVendor("strict");
    stockAdviceWithLongUnit(strict, `${tag}-S`);
    await receive(strict);
    expect(await stockOf(strict, `${tag}-S`)).toBeNull();
    expect(our997s(strict).join("")).toMatch(/AK4\*3\*\*5~AK5\*R\*5~AK9\*R\*1\*1\*0~/);
  });
});

describe("what the envelope gets slightly or badly wrong (D216, D217)", () => {
  it("a repeated ST02 is applied and noted: in the log as a warning, in the 997 as AK5 E 23", async () => {
    const vendor = await createVendor();
    stockAdvice(vendor, [
      [`${tag}-D1`, 3, "EA", "0001"],
      [`${tag}-D2`, 4, "EA", "0001"],
    ]);
    await receive(vendor);
    expect([await stockOf(vendor, `${tag}-D1`), await stockOf(vendor, `${tag}-D2`)]).toEqual([3, 4]);
    expect(our997s(vendor).join("")).toContain("AK2*846*0001~AK5*A~AK2*846*0001~AK5*E*23~AK9*E*2*2*2~");
    const warning = await prisma.dropshipLog.findFirstOrThrow({ where: { vendor_id: vendor.id, status: "warning", message: { contains: "ST02" } } });
    expect(warning.message).toContain('ST02 "0001" is used by an earlier transaction set of group "7"');
  });

  it("a repeated GS06 is applied and noted: in the log as a warning, in the 997 as AK9 E 19", async () => {
    const vendor = await createVendor();
    const groupOf = (sku: string) => [
      `GS*IB*${vendor.edi_identifier}*OURCOMPANY*20240501*1200*7*X*004010`,
      ...["ST*846*0001", "BIA*00*DD*INV1*20240501", `LIN**SK*${sku}`, "QTY*33*2*EA", "CTT*1", "SE*6*0001"],
      "GE*1*7",
    ];
    const isa = isaSegment({ sender: `${vendor.edi_identifier}`.padEnd(15), receiver: "OURCOMPANY     " });
    const text = [isa, ...groupOf(`${tag}-G1`), ...groupOf(`${tag}-G2`), "IEA*2*000000001"].join("~") + "~";
    writeFileSync(path.join(folderOf(vendor, "sftp_incoming_folder"), "846_groups.edi"), text);
    await receive(vendor);
    expect([await stockOf(vendor, `${tag}-G1`), await stockOf(vendor, `${tag}-G2`)]).toEqual([2, 2]);
    expect(our997s(vendor).join("")).toContain("AK9*E*1*1*1*19~");
    const warning = await prisma.dropshipLog.findFirstOrThrow({ where: { vendor_id: vendor.id, status: "warning", message: { contains: "GS06" } } });
    expect(warning.message).toContain('GS06 "7" is used by an earlier functional group of interchange "000000001"');
  });

  it("an interchange refused for its IEA02 is answered by a 997 that rejects its sets, never accepts them", async () => {
    const vendor = await createVendor();
    stockAdvice(vendor, [[`${tag}-R`, 9, "EA", "0001"]], "000000099");
    await receive(vendor);
    expect(await stockOf(vendor, `${tag}-R`)).toBeNull();
    const answer = our997s(vendor).join("");
    expect(answer).toContain("AK2*846*0001~AK5*R~AK9*R*1*1*0~");
    expect(answer).not.toMatch(/AK9\*A/);
  });
});
