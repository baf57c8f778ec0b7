// Route table of spec §2, in its order. Pricing, blog and promo come before the generic
// ":page" and catch-all routes so that they are reachable; "" redirects to login (to the
// dashboard when signed in), so the promo landing lives at /promo.
import { createBrowserRouter, type LoaderFunction, type RouteObject, redirect } from "react-router";
import { getToken, registerNavigator } from "./api/client.ts";
import { loginPathFor } from "./api/next-path.ts";
import { notFoundPathFor } from "./api/not-found-path.ts";
import { RootLayout, RouteErrorPage } from "./root-layout.tsx";
import { PageLoader } from "./ui/page-loader.tsx";

// Redirect-only routes render nothing; the component keeps React Router from rendering an
// empty outlet while the redirect is under way.
function RenderNothing() {
  return null;
}

/** Signed out: to sign-in, which brings the person back here afterwards. */
export const requireToken: LoaderFunction = ({ request }) => {
  if (getToken()) return null;
  const url = new URL(request.url);
  return redirect(loginPathFor(`${url.pathname}${url.search}`));
};

export const routes: RouteObject[] = [
  {
    id: "root",
    Component: RootLayout,
    ErrorBoundary: RouteErrorPage,
    HydrateFallback: PageLoader,
    children: [
      // "/": the dashboard for someone signed in, sign-in for everyone else.
      {
        index: true,
        loader: () => redirect(getToken() ? "/dashboard" : "/login"),
        Component: RenderNothing,
      },
      {
        path: "dashboard",
        loader: requireToken,
        lazy: async () => ({
          Component: (await import("./features/dashboard/dashboard-layout.tsx")).DashboardLayout,
        }),
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import("./features/dashboard/dashboard-home.tsx")).DashboardHome,
            }),
          },
          {
            path: "apps",
            lazy: async () => ({
              Component: (await import("./features/apps/apps-layout.tsx")).AppsLayout,
            }),
            children: [
              {
                index: true,
                lazy: async () => ({
                  Component: (await import("./features/apps/apps-page.tsx")).AppsPage,
                }),
              },
              {
                path: ":id",
                lazy: async () => ({
                  Component: (await import("./features/apps/app-page.tsx")).AppPage,
                }),
              },
            ],
          },
          {
            path: "m",
            lazy: async () => ({
              Component: (await import("./features/mobile/mobile-apps-page.tsx")).MobileAppsPage,
            }),
          },
          {
            path: "profile",
            lazy: async () => ({
              Component: (await import("./features/profile/profile-page.tsx")).ProfilePage,
            }),
          },
          {
            path: "invitations",
            lazy: async () => ({
              Component: (await import("./features/dashboard/invitations-page.tsx")).InvitationsPage,
            }),
          },
          {
            path: "organization/new",
            lazy: async () => ({
              Component: (await import("./features/dashboard/create-organization-page.tsx"))
                .CreateOrganizationPage,
            }),
          },
          {
            path: "organization/settings",
            lazy: async () => ({
              Component: (await import("./features/organization/settings-page.tsx")).SettingsPage,
            }),
          },
          {
            path: "organization/staff",
            lazy: async () => ({
              Component: (await import("./features/organization/staff-page.tsx")).StaffPage,
            }),
          },
          {
            path: "organization/teams",
            lazy: async () => ({
              Component: (await import("./features/organization/teams-page.tsx")).TeamsPage,
            }),
          },
          {
            path: "organization/permission-groups",
            lazy: async () => ({
              Component: (await import("./features/organization/permission-groups-page.tsx"))
                .PermissionGroupsPage,
            }),
          },
          {
            path: "feedback/:id?",
            lazy: async () => ({
              Component: (await import("./features/apps/feedback/feedback-inbox-page.tsx")).FeedbackInboxPage,
            }),
          },
          {
            path: "organization/sign-on",
            lazy: async () => ({
              Component: (await import("./features/organization/sign-on-page.tsx")).SignOnPage,
            }),
          },
          {
            path: "organization/store",
            lazy: async () => ({
              Component: (await import("./features/organization/store-accounts-page.tsx")).StoreAccountsPage,
            }),
          },
          {
            path: "organization/mail-server",
            lazy: async () => ({
              Component: (await import("./features/organization/mail-server-page.tsx")).MailServerPage,
            }),
          },
          {
            path: "organization/storage",
            lazy: async () => ({
              Component: (await import("./features/organization/storage-page.tsx")).StoragePage,
            }),
          },
          {
            path: "organization/integrations",
            lazy: async () => ({
              Component: (await import("./features/apps/integrations/organization-integrations-page.tsx"))
                .OrganizationIntegrationsPage,
            }),
          },
          {
            path: "organization/plan",
            lazy: async () => ({
              Component: (await import("./features/organization/plan-page.tsx")).PlanPage,
            }),
          },
          {
            path: "admin/organizations",
            lazy: async () => ({
              Component: (await import("./features/admin/organizations-page.tsx")).OrganizationsPage,
            }),
          },
          {
            path: "admin/content",
            lazy: async () => ({
              Component: (await import("./features/admin/content-editor-page.tsx")).ContentEditorPage,
            }),
          },
          {
            path: "*",
            lazy: async () => ({
              Component: (await import("./features/dashboard/dashboard-not-found.tsx")).DashboardNotFound,
            }),
          },
        ],
      },
      {
        path: "get-my-udid",
        lazy: async () => ({
          Component: (await import("./features/public/udid/get-my-udid-page.tsx")).GetMyUdidPage,
        }),
      },
      {
        path: "getapp",
        lazy: async () => ({
          Component: (await import("./features/public/getapp/getapp-page.tsx")).GetAppPage,
        }),
      },
      {
        path: "getapp/*",
        lazy: async () => ({
          Component: (await import("./features/public/getapp/getapp-page.tsx")).GetAppPage,
        }),
      },
      {
        path: "signup",
        lazy: async () => ({ Component: (await import("./features/auth/signup-page.tsx")).SignupPage }),
      },
      {
        path: "activate",
        lazy: async () => ({ Component: (await import("./features/auth/activate-page.tsx")).ActivatePage }),
      },
      {
        path: "activate/:code",
        lazy: async () => ({ Component: (await import("./features/auth/activate-page.tsx")).ActivatePage }),
      },
      {
        path: "login",
        lazy: async () => ({ Component: (await import("./features/auth/login-page.tsx")).LoginPage }),
      },
      {
        path: "login-custom-client",
        lazy: async () => ({
          Component: (await import("./features/auth/login-custom-client-page.tsx")).LoginCustomClientPage,
        }),
      },
      {
        path: "reset",
        lazy: async () => ({ Component: (await import("./features/auth/reset-page.tsx")).ResetPage }),
      },
      {
        path: "update-password",
        lazy: async () => ({
          Component: (await import("./features/auth/update-password-page.tsx")).UpdatePasswordPage,
        }),
      },
      {
        path: "not-found",
        lazy: async () => ({
          Component: (await import("./features/public/not-found-page.tsx")).NotFoundPage,
        }),
      },
      {
        path: "pricing",
        lazy: async () => ({ Component: (await import("./features/content/pricing-page.tsx")).PricingPage }),
      },
      {
        path: "blog",
        lazy: async () => ({
          Component: (await import("./features/content/blog-list-page.tsx")).BlogListPage,
        }),
      },
      {
        path: "blog/:slug",
        lazy: async () => ({
          Component: (await import("./features/content/blog-post-page.tsx")).BlogPostPage,
        }),
      },
      {
        path: "promo",
        lazy: async () => ({ Component: (await import("./features/content/promo-page.tsx")).PromoPage }),
      },
      {
        path: "faq",
        lazy: async () => ({ Component: (await import("./features/content/faq-page.tsx")).FaqPage }),
      },
      {
        path: "whats-new",
        lazy: async () => ({
          Component: (await import("./features/content/whats-new-page.tsx")).WhatsNewPage,
        }),
      },
      {
        path: "sdk",
        lazy: async () => ({ Component: (await import("./features/content/content-page.tsx")).SdkPage }),
      },
      {
        path: ":page",
        lazy: async () => ({ Component: (await import("./features/content/content-page.tsx")).ContentPage }),
      },
      // Anything else: the not-found page, which first asks whether the address moved.
      {
        path: "*",
        loader: ({ request }) => redirect(notFoundPathFor(new URL(request.url).pathname)),
        Component: RenderNothing,
      },
    ],
  },
];

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Lets the API client send the user to /login from outside React (spec §8, 401). */
export function connectNavigator(router: AppRouter): void {
  registerNavigator((path) => {
    if (router.state.location.pathname !== path) void router.navigate(path);
  });
}

export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(routes);
  connectNavigator(router);
  return router;
}
