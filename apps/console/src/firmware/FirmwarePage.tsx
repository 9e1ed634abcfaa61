import { ArtifactsPage } from './ArtifactsPage.tsx';

/** Product → firmware (/product/firmware). */
export default function FirmwarePage() {
  return <ArtifactsPage kind="firmware" />;
}
