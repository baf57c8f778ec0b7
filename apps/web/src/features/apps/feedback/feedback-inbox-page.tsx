// The organization's feedback inbox (admins): every app's reports; /dashboard/feedback/{id} opens one.

import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { isAdminRole } from "../../../api/roles.ts";
import { PageFrame, ProfileGate } from "../../../ui/page-frame.tsx";
import { FeedbackList } from "./feedback-list.tsx";

export function FeedbackInboxPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const openId = id && Number.isInteger(Number(id)) ? Number(id) : null;
  return (
    <PageFrame title={t("feedback.inbox_title")} description={t("feedback.inbox_description")}>
      <ProfileGate needsOrg allow={isAdminRole}>
        {(_profile, org) =>
          org ? (
            <FeedbackList
              scope={{ organization: org.org_id }}
              showApp
              canTriage
              openId={openId}
              onOpen={(next) =>
                void navigate(next === null ? "/dashboard/feedback" : `/dashboard/feedback/${next}`)
              }
            />
          ) : null
        }
      </ProfileGate>
    </PageFrame>
  );
}
