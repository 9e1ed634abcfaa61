import { ArtifactsPage } from './ArtifactsPage.tsx';

/** Product → voice packs (/product/voice-version), rolled out like firmware. */
export default function VoiceVersionPage() {
  return <ArtifactsPage kind="voice" />;
}
