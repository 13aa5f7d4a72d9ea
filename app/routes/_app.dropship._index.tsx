// /dropship: the area's menu (spec 000 §2).
import { AreaMenu } from "~/components/AreaMenu";
import { DROPSHIP_MENU } from "~/components/navigation";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(async () => ({}));

export default function DropshipMenu() {
  return <AreaMenu title="dropship.menu_title" links={DROPSHIP_MENU} />;
}
