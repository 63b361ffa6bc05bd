// What a sidebar widget (the organization picker) calls when one of its links is followed: on phones the
// sidebar is a drawer over the page, and following a link closes it, as the sidebar's own links do.
// Outside the sidebar there is nothing to close.
import { createContext, useContext } from 'react';

export const SidebarNavigation = createContext<() => void>(() => {});

export const useSidebarNavigate = () => useContext(SidebarNavigation);
