// Pages outside the session switch: the standalone routes features register (password reset, shared
// message, checkout, thank-you, embedded chat).
// All of Mantine's styles: the entry loads only the first screens' (main.tsx, app/mantine-first.css).
import '@mantine/core/styles.layer.css';
import { Route, Routes } from 'react-router';
import NotFoundPage from '../ui/NotFoundPage';
import { registry } from './app-registry';

export default function StandaloneRoutes() {
  return (
    <Routes>
      {registry.standaloneRoutes.map((route) => (
        <Route key={route.path} path={route.path} element={<route.component />} />
      ))}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
