// /order/{increment_id}: the order's whole story on one screen (issue 32 items 1 and 8); its data is GET /api/order/{increment_id}.
import { useLoaderData } from "@remix-run/react";
import { Banner } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { pageLoader } from "~/http/route.server";
import { renderForReader } from "~/i18n/messages";
import { NotFoundError, ValidationError, renderProblem } from "~/lib/validation.server";
import { OrderStoryPage } from "~/order-story/OrderStoryPage";
import { orderParamsSchema } from "~/order-story/params";
import { orderStory } from "~/order-story/story.server";

export const loader = pageLoader(async ({ params, t, staff }) => {
  const parsed = orderParamsSchema.safeParse(params);
  if (!parsed.success)
    return Response.json({ incrementId: params.incrementId ?? "", problem: t("order_story.errors.increment_id"), story: null }, { status: 422 });
  try {
    return { incrementId: parsed.data.incrementId, problem: null, story: renderForReader(t, await orderStory(parsed.data.incrementId)), shop: staff.shop };
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof ValidationError) {
      const status = error instanceof NotFoundError ? 404 : 422;
      const problem = error instanceof NotFoundError ? renderProblem(t, error.problem) : renderProblem(t, error.summary);
      return Response.json({ incrementId: parsed.data.incrementId, problem, story: null }, { status });
    }
    throw error;
  }
});

export default function OrderStoryRoute() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>() as {
    incrementId: string;
    problem: string | null;
    story: Parameters<typeof OrderStoryPage>[0]["story"] | null;
    shop?: string;
  };
  return (
    <AppPage title={t("order_story.title", { order: data.incrementId })} backAction={{ content: t("buttons.back"), url: "/advancedorder" }}>
      {data.story ? (
        <OrderStoryPage story={data.story} shop={data.shop ?? ""} />
      ) : (
        <Banner tone="critical" title={t("order_story.load_error")}>
          <p>{data.problem}</p>
        </Banner>
      )}
    </AppPage>
  );
}
