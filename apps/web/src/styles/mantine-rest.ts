import './mantine-rest.css';
