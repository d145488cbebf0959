import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { Greeting } from './Greeting.js';

export function App() {
  return (
    <BrowserRouter>
      <main className="page">
        <Routes>
          <Route path="/" element={<Greeting user={null} />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </main>
    </BrowserRouter>
  );
}
