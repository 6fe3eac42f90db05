// Schemas of the tickets area: requests and answers, shared by the API and the web app.
export {};
