// POST /api/feed/bulk {action: run, ids}: each feed started in the background as Run Feed starts it
// (app/bulk/bulk.server.ts) → {error, message, counts, results: [{id, outcome, message}]}; 422 for a bad body.
// The route hands in the registry (D97): app/bulk never imports jobs/.
import { staffName } from "~/auth.server";
import { bulkFeeds } from "~/bulk/bulk.server";
import { apiRoute, onlyPost, postRoute } from "~/http/route.server";
import { localeFromUrl } from "~/i18n/config";
import { readBody } from "~/lib/validation.server";
import { FEED_JOBS } from "../../jobs/registry";

export const loader = onlyPost();
export const action = postRoute(
  apiRoute(async ({ request, staff, t }) => bulkFeeds(await readBody(request), staffName(staff), FEED_JOBS, t, localeFromUrl(request.url))),
);
