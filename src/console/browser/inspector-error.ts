// The page that says why an address's filters cannot be read: it only drops the token from the address.
import { dropTokenFromAddress } from './token-address.js';

dropTokenFromAddress();
