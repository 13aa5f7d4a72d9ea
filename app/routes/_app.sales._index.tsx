// /sales: the area's menu, the OMS links as on Home (spec 001 §2).
import { AreaMenu } from "~/components/AreaMenu";
import { HOME_LINK_GROUPS } from "~/components/navigation";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(async () => ({}));

const SALES_LINKS = HOME_LINK_GROUPS.find((group) => group.title === "home.groups.sales")!.links;

export default function SalesMenu() {
  return <AreaMenu title="sales.menu_title" links={SALES_LINKS} />;
}
