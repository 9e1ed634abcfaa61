import { Grid } from '@arco-design/web-react';
import styles from './workplace.module.css';
import { ContentChart } from './ContentChart.tsx';
import { Greeting } from './Greeting.tsx';
import { NotifyList } from './NotifyList.tsx';
import { OverviewCards } from './OverviewCards.tsx';
import { PopularContent } from './PopularContent.tsx';
import { QuickLinks } from './QuickLinks.tsx';
import { UnreadMessages } from './UnreadMessages.tsx';

/**
 * The landing page, after Arco Design Pro's workplace: the fleet at a glance, what app users open,
 * and on the side what needs me and where I can go. Every widget refreshes itself.
 */
export default function WorkplacePage() {
  return (
    <Grid.Row gutter={[16, 16]}>
      <Grid.Col xs={24} xl={17}>
        <div className={styles.page}>
          <Greeting />
          <OverviewCards />
          <ContentChart />
          <PopularContent />
        </div>
      </Grid.Col>
      <Grid.Col xs={24} xl={7}>
        <div className={styles.page}>
          <NotifyList />
          <UnreadMessages />
          <QuickLinks />
        </div>
      </Grid.Col>
    </Grid.Row>
  );
}
