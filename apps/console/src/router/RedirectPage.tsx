import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { DEFAULT_ROUTE } from '@mowerline/contract';

/**
 * /redirect/:path (signed in, hidden): shown for a moment so the page being reloaded leaves the
 * screen, then goes back to `path` (a full path with its query), which mounts it fresh.
 */
export default function RedirectPage() {
  const { path } = useParams();
  const navigate = useNavigate();
  useEffect(() => {
    const decoded = path?.startsWith('/') ? path : decodeURIComponent(path ?? '');
    const target = decoded.startsWith('/') ? decoded : DEFAULT_ROUTE.fullPath;
    navigate(target, { replace: true });
  }, [path, navigate]);
  return null;
}
