import { createContext } from 'react';

/** Whether Ink views may colour text (false under NO_COLOR). Provided once at the root of each view. */
export const ColorContext = createContext<boolean>(true);
