import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { PageHeader, Tabs } from '../../ui/components';
import { DocumentsHome } from './DocumentsHome';
import { RequestsList } from './RequestsList';
import { RequestPage } from './RequestPage';
import { InPersonSigning } from './InPersonSigning';
import './documents.css';

export function DocumentsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const tab = location.pathname.startsWith('/documents/requests') ? 'requests' : 'documents';
  return (
    <>
      <PageHeader title="Documents" subtitle="Store PDFs in folders and collect legally sealed e-signatures." />
      <Tabs
        tabs={[
          { value: 'documents', label: 'Documents' },
          { value: 'requests', label: 'Signature requests' },
        ]}
        value={tab}
        onChange={(v) => navigate(v === 'documents' ? '/documents' : '/documents/requests')}
      />
      <Routes>
        <Route index element={<DocumentsHome />} />
        <Route path="requests" element={<RequestsList />} />
        <Route path="requests/:requestId" element={<RequestPage />} />
        <Route path="requests/:requestId/sign/:signerId" element={<InPersonSigning />} />
      </Routes>
    </>
  );
}
