import { Outlet, useNavigation } from 'react-router';
import './app.css';
import './contrast.css';

/** Spec §9: the navigation progress bar, without a spinner. */
function NavigationProgress() {
  const navigating = useNavigation().state !== 'idle';
  return <div className={navigating ? 'nav-progress nav-progress-active' : 'nav-progress'} role="presentation" />;
}

export function RootRoute() {
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}
