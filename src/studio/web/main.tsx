import '@xyflow/react/dist/style.css';
import './studio.css';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
