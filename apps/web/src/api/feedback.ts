// Feedback sent from apps (the SDK's shake to report) and its triage.
import type { FeedbackItem, FeedbackPatch, Page } from "@tarmac/contracts";
import { feedbackStatuses, feedbackTags, openFeedbackFilter } from "@tarmac/contracts";
import { api } from "./client.ts";

export type { FeedbackItem };
export { feedbackStatuses, feedbackTags, openFeedbackFilter };

/** Filters of a feedback list; `status` 4 is every open report. */
export interface FeedbackFilters {
  status: number | null;
  tag: string | null;
  build_version: string;
  device: string;
  ordering: string;
}

export const DEFAULT_FILTERS: FeedbackFilters = {
  status: openFeedbackFilter,
  tag: null,
  build_version: "",
  device: "",
  ordering: "-created_at",
};

/** Whose reports: one app's, or the whole organization's inbox. */
export type FeedbackScope = { app: number } | { organization: number };

export const feedbackKeys = {
  all: ["feedback"] as const,
  list: (scope: FeedbackScope, filters: FeedbackFilters, page: number) =>
    ["feedback", scope, filters, page] as const,
  detail: (id: number) => ["feedback", "detail", id] as const,
};

export function fetchFeedback(scope: FeedbackScope, filters: FeedbackFilters, page: number) {
  return api.get<Page<FeedbackItem>>("/api/feedback-mobile-data/", {
    query: {
      ...("app" in scope ? { app_id: scope.app } : { app__organization: scope.organization }),
      page,
      status: filters.status ?? undefined,
      tag: filters.tag ?? undefined,
      build_version: filters.build_version || undefined,
      device: filters.device || undefined,
      ordering: filters.ordering,
    },
  });
}

export function fetchFeedbackItem(id: number) {
  return api.get<FeedbackItem>(`/api/feedback-mobile-data/${id}/`);
}

export function triageFeedback(id: number, change: FeedbackPatch) {
  return api.patch<FeedbackItem>(`/api/feedback-mobile-data/${id}/`, change);
}
