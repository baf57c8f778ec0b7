// The applications area: one add-app flow shared by the list and the app pages, so an upload
// keeps running while the user moves between them.
import { Outlet } from "react-router";
import { AddAppModal, BackgroundUpload } from "./upload/add-app-modal.tsx";
import { UploadProvider } from "./upload/upload-context.tsx";

export function AppsLayout() {
  return (
    <UploadProvider>
      <Outlet />
      <AddAppModal />
      <BackgroundUpload />
    </UploadProvider>
  );
}
