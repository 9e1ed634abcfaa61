// The console's composition root. Arco's React 19 adapter must load before anything renders.
import '@arco-design/web-react/es/_util/react-19-adapter';
import '@arco-design/web-react/es/style/index.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';

createRoot(document.getElementById('root')!).render(<App />);
