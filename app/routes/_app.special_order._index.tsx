// /special_order: the area's menu (spec 001 §2).
import { AreaMenu } from "~/components/AreaMenu";
import { pageLoader } from "~/http/route.server";

const SPECIAL_ORDER_MENU = [
  { url: "/special_order/current", label: "special_orders.buttons.current" },
  { url: "/special_order/error/", label: "special_orders.buttons.errors" },
  { url: "/special_order/log/", label: "special_orders.buttons.logs" },
] as const;

export const loader = pageLoader(async () => ({}));

export default function SpecialOrderMenu() {
  return <AreaMenu title="special_orders.menu_title" links={SPECIAL_ORDER_MENU} />;
}
