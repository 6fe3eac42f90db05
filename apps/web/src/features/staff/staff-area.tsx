import { Navigate, Route, Routes, useParams } from 'react-router';
// The desk's texts are registered when this chunk loads (i18n/index.ts).
import './i18n';
import InboxPage from './inbox-page';
import StaffAcceptPage from './staff-accept-page';
import StaffLoginPage from './staff-login-page';
import { StaffShell } from './staff-shell';
import StaffTicketPage from './staff-ticket-page';
import { staffPath } from './staff-paths';

/** An unknown desk address: the inbox. */
function ToInbox() {
  const { company = '' } = useParams();
  return <Navigate to={staffPath(company)} replace />;
}

/**
 * The staff desk (issue 13), `/{portal}/staff/…`: one lazily loaded chunk (the router imports it on
 * demand), so a customer's first load carries none of it. Sign-in and invitation pages stand alone;
 * the inbox and the ticket live in the desk's layout, which keeps its guard.
 */
export default function StaffArea() {
  return (
    <Routes>
      <Route path="login" element={<StaffLoginPage />} />
      <Route path="accept" element={<StaffAcceptPage />} />
      <Route element={<StaffShell />}>
        <Route index element={<InboxPage />} />
        <Route path="tickets/:ticketid" element={<StaffTicketPage />} />
        <Route path="*" element={<ToInbox />} />
      </Route>
    </Routes>
  );
}
