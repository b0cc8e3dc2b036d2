import { Route, Routes } from 'react-router';
import { SubscriptionDetail } from './SubscriptionDetail';
import { SubscriptionList } from './SubscriptionList';
import '../helpdesk/helpdesk.css';
import './webhooks.css';

/** Settings → Webhooks: endpoints, the secret shown once, and each endpoint's delivery log. */
export function WebhooksSection() {
  return (
    <Routes>
      <Route index element={<SubscriptionList />} />
      <Route path=":subscriptionId" element={<SubscriptionDetail />} />
    </Routes>
  );
}
