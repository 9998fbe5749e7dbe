// `legalkg neo4j reset-password`: the one statement run on the system database while the home's
// server runs with auth off (on loopback, on free ports), as Neo4j's "Recover admin user and
// password" procedure does. Both the user and the password are parameters.
ALTER USER $user SET PASSWORD $password CHANGE NOT REQUIRED
