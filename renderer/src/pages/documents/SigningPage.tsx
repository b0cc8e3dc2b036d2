import { useParams } from 'react-router';
import { SigningScreen } from './SigningScreen';
import './documents.css';

/** The page a signing link opens (`/sign/:token`); the token is the only credential. */
export function SigningPage() {
  const { token } = useParams();
  return (
    <div className="signing-page">
      <SigningScreen token={token!} />
    </div>
  );
}
