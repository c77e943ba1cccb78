import { Box, Text } from 'ink';
import type { ReactNode } from 'react';

/** A bold heading over indented content, with a blank line above; the plan view is a stack of these. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>{title}</Text>
      <Box flexDirection="column" paddingLeft={2}>
        {children}
      </Box>
    </Box>
  );
}
