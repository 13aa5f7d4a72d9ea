// GET /api/dropship_tools: the vendors to choose from on the Tools page (id, name).
import { toolsVendorList } from "~/dropship/vendors.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(() => toolsVendorList());
