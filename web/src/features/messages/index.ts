// What other features use of saved messages (features meet through index.ts).
export { ShareMessageButton } from './ShareMessageButton';
