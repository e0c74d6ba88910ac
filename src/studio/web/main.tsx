import '@xyflow/react/dist/style.css';
import './studio.css';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';

// The token came in the address; the Studio answered with a cookie, so it can leave the
// address bar (and the browser's history) at once.
if (new URLSearchParams(location.search).has('token')) history.replaceState(null, '', `/${location.hash}`);

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
