import '@mantine/core/styles.css';
import { MantineProvider, Title, Text, Container } from '@mantine/core';

export function App() {
  return (
    <MantineProvider>
      <Container component="main" py="xl">
        <Title order={1}>Sportello</Title>
        <Text>Portale clienti</Text>
      </Container>
    </MantineProvider>
  );
}
