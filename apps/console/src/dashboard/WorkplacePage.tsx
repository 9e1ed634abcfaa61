import { Grid } from '@arco-design/web-react';
import styles from './workplace.module.css';
import { Greeting } from './Greeting.tsx';
import { QuickLinks } from './QuickLinks.tsx';
import { RecentActivity } from './RecentActivity.tsx';
import { UnreadMessages } from './UnreadMessages.tsx';

/** The landing page: who I am, what waits for me, what happened lately, and where I can go. */
export default function WorkplacePage() {
  return (
    <Grid.Row gutter={[16, 16]}>
      <Grid.Col xs={24} lg={16}>
        <div className={styles.page}>
          <Greeting />
          <QuickLinks />
          <RecentActivity />
        </div>
      </Grid.Col>
      <Grid.Col xs={24} lg={8}>
        <UnreadMessages />
      </Grid.Col>
    </Grid.Row>
  );
}
