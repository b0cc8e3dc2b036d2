import { Route, Routes } from 'react-router';
import { TicketList } from './TicketList';
import { TicketPage } from './TicketPage';
import './helpdesk.css';

export function HelpdeskPage() {
  return (
    <Routes>
      <Route index element={<TicketList />} />
      <Route path="tickets/:ticketId" element={<TicketPage />} />
    </Routes>
  );
}
