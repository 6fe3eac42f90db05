/** Mantine's Tooltip as a module of its own, for `lazy()` (ui/conversation-message.tsx). */
export { Tooltip as default } from '@mantine/core';
