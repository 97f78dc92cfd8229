// The French of app.js's texts: English as it is written in app.js (the key), then its French.
// A space goes before ":", ";", "?" and "!" as French writes them; words that would show a
// person's gender are avoided.
import { addFrench } from "./i18n.js";

addFrench({
  // taking back a move
  "Undo": "Annuler",
  "There is no move of yours to take back now.": "Vous n'avez aucun coup à reprendre maintenant.",
  "Take back your last move: nothing it did was shown to anyone, and nobody has moved since.":
    "Reprendre votre dernier coup : il n'a rien montré à personne, et personne n'a joué depuis.",
  // the page, the site bar, the connection
  "Skip to content": "Aller au contenu",
  "Loading…": "Chargement…",
  "The page could not start: {message}": "La page n'a pas pu démarrer : {message}",
  "Account": "Compte",
  "Language": "Langue",
  "Games": "Jeux",
  "Watching as a guest": "Vous regardez sans compte",
  "Signed in as ": "Compte : ",
  "Sign in": "Se connecter",
  "Sign out": "Se déconnecter",
  "Connection lost: reconnecting…": "Connexion perdue : reconnexion…",
  "Disconnected from the game server. Reload the page.": "Connexion au serveur de jeu perdue. Rechargez la page.",
  "Your session has expired or was signed out: sign in again.":
    "Votre session a expiré ou a été fermée : reconnectez-vous.",
  "Signed out in another tab.": "Session fermée dans un autre onglet.",
  "Not found": "Introuvable",

  // signing in
  "Name": "Nom",
  "Letters, digits, - and _.": "Lettres, chiffres, - et _.",
  "Password": "Mot de passe",
  "At least 8 characters. The first sign-in with a new name registers it.":
    "Au moins 8 caractères. La première connexion avec un nouveau nom l'enregistre.",
  "Choose a name of letters, digits, - and _ that does not start with 'guest'.":
    "Choisissez un nom fait de lettres, de chiffres, de - et de _, qui ne commence pas par « guest ».",
  "Watch as a guest": "Regarder sans compte",
  "Play Naishi, Dozito, Decrypto, Illustori and Diced Tomatoes with others.":
    "Jouez à Naishi, Dozito, Decrypto, Illustori et Diced Tomatoes avec d'autres joueurs.",
  "Or look without an account: guests watch tables and replays.":
    "Ou regardez sans compte : les tables en cours et les parties à rejouer.",
  "Sign-in refused: a wrong password for this name, too many attempts, or the server too busy to check it. Wait a moment and try again.":
    "Connexion refusée : mauvais mot de passe pour ce nom, trop de tentatives, ou serveur trop occupé pour " +
    "le vérifier. Attendez un moment et réessayez.",
  "Cannot sign in ({message}).": "Connexion impossible ({message}).",

  // the games
  "Table id": "Identifiant de table",
  "Open": "Ouvrir",
  "A table id starts with its game, e.g. naishi-1a2b3c4d5e6f.":
    "L'identifiant d'une table commence par son jeu, par exemple naishi-1a2b3c4d5e6f.",
  "{n} players": "{n} joueurs",
  "{min} to {max} players": "{min} à {max} joueurs",
  "{title} tables": "Jouer à {title}",
  "Rankings": "Classements",
  "Find a table": "Trouver une table",
  "Open a table or its replay by its id (ended tables are not in the lobbies).":
    "Ouvrez une table, ou sa partie à rejouer, par son identifiant (les tables terminées ne sont plus dans les salons).",
  "Tables you opened": "Tables que vous avez ouvertes",
  "replay": "rejouer",

  // a game's lobby
  "{title} lobby": "Salon {title}",
  "{title} rankings": "Classement {title}",
  "There is no game called {game}.": "Aucun jeu ne s'appelle {game}.",
  "Loading tables…": "Chargement des tables…",
  "Open tables ({n})": "Tables ouvertes ({n})",
  "No open table: create one.": "Aucune table ouverte : créez-en une.",
  "Running tables ({n})": "Parties en cours ({n})",
  "No table is being played.": "Aucune partie en cours.",
  "The lobby did not answer ({message}); trying again.": "Le salon ne répond pas ({message}) ; nouvel essai.",
  "open": "ouverte",
  "running": "en cours",
  "ended": "terminée",
  "{taken} of {count} seats": "places : {taken} sur {count}",
  "created by {player}": "créée par {player}",
  "Join": "Rejoindre",
  "Leave": "Quitter la table",
  "Start": "Lancer",
  "Watch": "Regarder",
  "default options": "options par défaut",
  "{name}: {value}": "{name} : {value}",
  "none": "aucun",
  "yes": "oui",
  "no": "non",
  "New table": "Nouvelle table",
  "Guests watch: sign in to create or join a table.":
    "Sans compte, on ne fait que regarder : connectez-vous pour créer ou rejoindre une table.",

  // the create form
  "Create the table": "Créer la table",
  "Seats": "Places",
  "the most players; the game can start with fewer": "le nombre maximal de joueurs ; la partie peut commencer avec moins",
  "Clocks and bots": "Pendules et bots",
  "comma-separated": "séparés par des virgules",
  "Comma-separated.": "Séparés par des virgules.",
  "Empty: none.": "Vide : aucun.",
  "No answer from the game server ({message}).": "Pas de réponse du serveur de jeu ({message}).",
  // the options every table takes (shared/games/clock.py), their values and sentences
  "Clock": "Pendule",
  "Clock bank": "Réserve de temps",
  "Clock increment": "Temps ajouté par coup",
  "On timeout": "En cas de temps écoulé",
  "Bots": "Bots",
  "Start when full": "Lancer dès que complète",
  "Bot level": "Niveau des bots",
  "Easy bots": "Bots faciles",
  "Normal bots": "Bots normaux",
  "Hard bots": "Bots forts",
  "Custom": "Personnalisée",
  "Fast": "Rapide",
  "None": "Aucune",
  "Normal": "Normale",
  "Slow": "Lente",
  "Lose": "Défaite",
  "Zombie": "Un bot prend la place",
  "A time bank per player: fast 3 min +15 s a move, normal 6 min +30 s, slow 12 min +60 s.":
    "Une réserve de temps par joueur : rapide 3 min +15 s par coup, normale 6 min +30 s, lente 12 min +60 s.",
  "Custom clock only: each player's bank, in seconds.":
    "Pendule personnalisée seulement : la réserve de chaque joueur, en secondes.",
  "Custom clock only: seconds added to a player's bank after each move.":
    "Pendule personnalisée seulement : les secondes ajoutées à la réserve d'un joueur après chaque coup.",
  "When a clock runs out: a bot plays the seat, or the player loses (two players: at once).":
    "Quand une pendule tombe à zéro : un bot prend la place, ou le joueur perd (à deux joueurs : aussitôt).",
  "Seats taken by bots when the table is made.": "Places prises par des bots à la création de la table.",
  "How well the bots of this table play: easy moves at once on a rule of thumb; normal and hard think ahead from what their seat sees (hard longer). A player's seat left to a bot plays at normal.":
    "Le jeu des bots de cette table : faciles, ils jouent aussitôt d'après une règle simple ; normaux et forts, ils réfléchissent à partir de ce que voit leur place (les forts plus longtemps). La place laissée par un joueur à un bot joue au niveau normal.",
  "The game starts by itself as soon as every seat is taken (as a rematch does).":
    "La partie démarre d'elle-même dès que toutes les places sont prises (comme une revanche).",

  // the table page
  "There is no {title} table {table}.": "Aucune table {table} pour le jeu {title}.",
  "Players": "Joueurs",
  "Game log": "Journal de la partie",
  "Back to the {title} lobby": "Retour au salon {title}",
  "Replay": "Rejouer",
  "The rules of {title}": "Règles du jeu {title}",
  "Open · seats:": "Ouverte · places :",
  "Playing · seats:": "En cours · places :",
  "Ended · seats:": "Terminée · places :",
  "{taken} of {count}": "{taken} sur {count}",
  "you play as {seat}": "vous jouez en tant que {seat}",
  "you are watching": "vous regardez",
  "Waiting for players: {taken} of {count} seats taken.":
    "En attente de joueurs : {taken} sur {count} places prises.",
  "You start the game.": "Vous lancerez la partie.",
  "{player} starts the game.": "{player} lancera la partie.",
  "The game is over.": "La partie est terminée.",
  "Your turn (with {players}).": "À vous de jouer (avec {players}).",
  "Your turn.": "À vous de jouer.",
  "Waiting for {players}.": "On attend : {players}.",
  "Your turn · {title} · tabletop": "À vous de jouer · {title} · tabletop",
  "Your turn at {title}": "À vous de jouer : {title}",
  "A chime when it is my turn": "Un son quand c'est à moi de jouer",
  "A notification when it is my turn and this tab is hidden":
    "Une notification quand c'est à moi de jouer et que cet onglet est caché",
  "Start the game": "Lancer la partie",
  "Quit the game": "Quitter la partie",
  "Quit this game? A bot plays your seat from now on.": "Quitter cette partie ? Un bot jouera désormais à votre place.",
  "Invitation link": "Lien d'invitation",
  "Invite players: send them this link.": "Invitez des joueurs : envoyez-leur ce lien.",
  "Copy": "Copier",
  "Copied.": "Copié.",
  "Select the link and copy it.": "Sélectionnez le lien et copiez-le.",
  "Rematch": "Revanche",
  "Join the rematch": "Rejoindre la revanche",
  "Decline": "Refuser",
  "You offer a rematch: it starts when everyone has joined.":
    "Vous proposez une revanche : elle commence quand tout le monde l'a rejointe.",
  "{player} offers a rematch: it starts when everyone has joined.":
    "{player} propose une revanche : elle commence quand tout le monde l'a rejointe.",
  "Go to it": "Y aller",
  "Watch it": "La regarder",
  "Declined: {players}.": "Refusée par : {players}.",
  "The rematch could not be made ({message}).": "La revanche n'a pas pu être créée ({message}).",
  "(you)": "(vous)",
  "bot": "bot",
  "played by a bot": "un bot joue à sa place",
  "away": "hors ligne",
  "to play": "à jouer",
  "Moves": "Coups",
  "Send": "Envoyer",
  "{label} (free text)": "{label} (texte libre)",

  // the result
  "Result": "Résultat",
  "No winner.": "Personne ne gagne.",
  "{player} wins.": "{player} gagne.",
  "Winners: {players}.": "Victoire : {players}.",
  "Nobody moved for a long time: the game was closed.":
    "Personne n'a joué depuis longtemps : la partie a été fermée.",
  "{players} left the game: ranked last, whatever the bot scored.":
    "{players} a quitté la partie : dernière place au classement, quel que soit le score du bot.",
  "{players} left the game: all ranked last, whatever the bot scored.":
    "{players} ont quitté la partie : dernières places au classement, quel que soit le score du bot.",
  "Rank": "Rang",
  "Player": "Joueur",
  "Score": "Score",
  "Rating": "Cote",
  "Why": "Pourquoi",
  "unrated": "hors classement",
  // the end's own words (shared/games/results.py)
  "Abandoned": "Abandonnée",
  "Expired": "Expirée",
  "Idle": "Inactive",
  "Abandoned seats": "Places abandonnées",
  "Timed out": "Temps écoulé",
  "Forfeited": "Forfait",
  "Lost on time": "Perdue au temps",

  // chat
  "Chat": "Discussion",
  "Chat lines": "Messages de la discussion",
  "not seated at this table": "sans place à cette table",
  "(spectator)": "(spectateur)",
  ": ": " : ",
  "The chat did not answer ({message}).": "La discussion ne répond pas ({message}).",
  "Say something to the table": "Écrire à la table",
  "Say something to the lobby": "Écrire au salon",
  "No answer from the chat ({message}).": "Pas de réponse de la discussion ({message}).",
  "Sign in to chat.": "Connectez-vous pour discuter.",

  // profiles and rankings
  "There is no player called {name}.": "Personne ne s'appelle {name}.",
  "abandoned": "abandonnée",
  "won": "victoire",
  "rank {rank}": "rang {rank}",
  "rating {rating} ({change})": "cote {rating} ({change})",
  "with": "avec",
  "More tables": "Plus de tables",
  "Playing since {date}.": "Joue depuis le {date}.",
  "No table played yet.": "Aucune table jouée pour l'instant.",
  "Game": "Jeu",
  "Played": "Jouées",
  "Won": "Gagnées",
  "Over time": "Évolution",
  "provisional: fewer than 5 rated tables": "provisoire : moins de 5 tables classées",
  "{name}'s {title} rating over time": "{name} : cote au jeu {title} au fil du temps",
  "no rated table": "aucune table classée",
  "Tables": "Tables",
  "The profile did not load ({message}).": "Le profil n'a pas pu être chargé ({message}).",
  "More players": "Plus de joueurs",
  "Nobody is rated yet: rated tables are those played by people only.":
    "Personne n'a encore de cote : seules les tables jouées sans bot sont classées.",
  "The rankings did not load ({message}).": "Le classement n'a pas pu être chargé ({message}).",
  "By rating: a cautious estimate of skill that rises as a player wins and as their record grows (a question mark: fewer than 5 rated tables).":
    "Par cote : une estimation prudente du niveau, qui monte avec les victoires et à mesure que " +
    "l'historique s'étoffe (un point d'interrogation : moins de 5 tables classées).",

  // the replay
  "Replay: {title}": "Rejouer la partie : {title}",
  "Play": "Lecture",
  "Pause": "Pause",
  "First": "Début",
  "First step": "Première étape",
  "Back": "Précédent",
  "Previous step": "Étape précédente",
  "Next": "Suivant",
  "Next step": "Étape suivante",
  "Last": "Fin",
  "Last step": "Dernière étape",
  "Step": "Étape",
  "The table": "La table",
  "step {n} of {count}, version {version}": "étape {n} sur {count}, version {version}",
  "Step {n} of {count} · version {version} · {player} · {at}":
    "Étape {n} sur {count} · version {version} · {player} · {at}",
  "This step ({player})": "Cette étape ({player})",
  "Nothing to show.": "Rien à afficher.",
  "No board for this step.": "Pas de plateau pour cette étape.",
  "The replay did not load ({message}).": "La partie à rejouer n'a pas pu être chargée ({message}).",
  "As {player}, with your own cards": "En tant que {player}, avec vos propres cartes",
  "As a spectator": "Vue de spectateur",
  "the table has ended": "la partie est terminée",
  "the table is still being played": "la partie est encore en cours",
  "see it as a spectator": "la voir en spectateur",
  "see it with your cards": "la voir avec vos cartes",
  "Go to step {n}": "Aller à l'étape {n}",

  // the replay's "Check the dice" panel (the checks' texts are fairness.js's)
  "Check the dice": "Vérifier les tirages",
  "This page has no WebCrypto here (it needs HTTPS): check the table with the command line, tabletop verify-fairness {table}.":
    "Cette page n'a pas WebCrypto ici (il faut HTTPS) : vérifiez la table en ligne de commande, tabletop verify-fairness {table}.",
  "The check could not run: {message}": "La vérification n'a pas pu se faire : {message}",
  "This table was created before tables committed to their draws: there is nothing to check.":
    "Cette table date d'avant l'engagement des tables sur leurs tirages : il n'y a rien à vérifier.",
  "The table has not ended: its secret is kept until it does, and its draws can be checked then.":
    "La partie n'est pas terminée : son secret reste gardé jusqu'à la fin, et ses tirages se vérifieront alors.",
  "Your browser draws this table's dice and cards again from the secret revealed at its end, without the server:":
    "Votre navigateur refait les tirages de dés et de cartes de cette table à partir du secret révélé à la fin, sans le serveur :",
  "Verdict: every check passed. The draws came from the secret committed when the table was created and from the players' entropy.":
    "Verdict : tout est vérifié. Les tirages viennent du secret engagé à la création de la table et de l'entropie des joueurs.",
  "Verdict: a check failed (✗ above): these draws are not shown to come from the committed secret.":
    "Verdict : une vérification a échoué (✗ ci-dessus) : rien ne montre que ces tirages viennent du secret engagé.",
  "Whether the draws equal what the game's events show is checked by the command line:":
    "La ligne de commande vérifie aussi que les tirages sont bien ceux que montrent les événements de la partie :",
  "The revealed secret is not hex.": "Le secret révélé n'est pas en hexadécimal.",
  "The revealed secret does not match the commitment: its SHA-256 is {hashed}…, the commitment {commitment}…":
    "Le secret révélé ne correspond pas à l'engagement : son SHA-256 est {hashed}…, l'engagement {commitment}…",
  "The revealed secret matches the commitment made at the table's creation ({commitment}…).":
    "Le secret révélé correspond à l'engagement pris à la création de la table ({commitment}…).",
  "The game never started: nothing was drawn.": "La partie n'a jamais commencé : rien n'a été tiré.",
  "The entropy of {players} is not up to 64 hex characters.":
    "L'entropie de {players} n'est pas faite d'au plus 64 caractères hexadécimaux.",
  "The seed is the SHA-256 of the secret and of each seat's entropy (seats: {seats}; with entropy of their own: {given}): {seed}…":
    "La graine est le SHA-256 du secret et de l'entropie de chaque place (places : {seats} ; avec une entropie propre : {given}) : {seed}…",
  "A command's draws start at block {first}, where block {expected} was next.":
    "Les tirages d'une commande commencent au bloc {first}, alors que le bloc suivant était le {expected}.",
  "The draws from block {blocks} are not among the revealed ones.":
    "Les tirages à partir du bloc {blocks} ne sont pas parmi ceux révélés.",
  "The revealed draws from block {blocks} belong to no command.":
    "Les tirages révélés à partir du bloc {blocks} n'appartiennent à aucune commande.",
  "The commands' draws follow one another from block 0 up to block {end} (commands that drew: {commands}), and they are exactly the revealed ones.":
    "Les tirages des commandes se suivent du bloc 0 jusqu'au bloc {end} (commandes ayant tiré : {commands}), et ce sont exactement ceux révélés.",
  "The draws from block {first}, made again, stop before block {next}; the log says before block {logged}.":
    "Les tirages à partir du bloc {first}, refaits, s'arrêtent avant le bloc {next} ; le journal dit avant le bloc {logged}.",
  "The draws from block {first} cannot be made again: {message}.":
    "Les tirages à partir du bloc {first} ne peuvent pas être refaits : {message}.",
  "Every draw made again from the seed (draws: {draws}): each command takes exactly the blocks it logged.":
    "Chaque tirage refait à partir de la graine (tirages : {draws}) : chaque commande prend exactement les blocs qu'elle a notés.",

  // the server's refusals, by their code (REFUSALS in app.js)
  "It is not your turn.": "Ce n'est pas votre tour.",
  "You have no seat at this table.": "Vous n'avez pas de place à cette table.",
  "You already have a seat at this table.": "Vous avez déjà une place à cette table.",
  "The game has already started.": "La partie a déjà commencé.",
  "The game has not started yet.": "La partie n'a pas encore commencé.",
  "The game at this table is over.": "La partie de cette table est terminée.",
  "A rematch is offered once the game is over.": "Une revanche se propose une fois la partie terminée.",
  "All the seats are taken.": "Toutes les places sont prises.",
  "A table with this id already exists.": "Une table porte déjà cet identifiant.",
  "Only the table's creator can start the game.": "Seule la personne qui a créé la table peut lancer la partie.",
  "Not enough players are seated to start.": "Il n'y a pas encore assez de joueurs pour commencer.",
  "There is no such table.": "Cette table n'existe pas.",
  "There is no such game.": "Ce jeu n'existe pas.",
  "The table changed meanwhile: look again and decide.": "La table a changé entre-temps : regardez à nouveau, puis décidez.",
  "A bot plays this seat; its player can no longer act here.":
    "Un bot joue à cette place ; vous ne pouvez plus y jouer.",
  "Your clock has run out; the move came too late.": "Votre temps est écoulé ; le coup arrive trop tard.",
  "Nobody has offered a rematch.": "Personne n'a proposé de revanche.",
  "You have answered this rematch already.": "Vous avez déjà répondu à cette revanche.",
  "An option is not valid: check the form's values.": "Une option n'est pas valide : vérifiez les valeurs du formulaire.",
  "This command is not valid.": "Cette commande n'est pas valide.",
  "This request is not valid.": "Cette demande n'est pas valide.",
  "This is not allowed.": "Ce n'est pas permis.",
  "The table is being set up; try again.": "La table est en cours de préparation ; réessayez.",
  "The table kept changing while this command was decided; send it again.":
    "La table a changé sans cesse pendant l'examen de cette commande ; renvoyez-la.",
  "The server is unavailable for a moment; try again.": "Le serveur est momentanément indisponible ; réessayez.",
  "Whether this was done is not known yet; try again.": "On ne sait pas encore si c'est fait ; réessayez.",
  "The server failed on this; nothing was done.": "Le serveur a échoué ; rien n'a été fait.",
  "The server's storage is full; nothing was done.": "Le stockage du serveur est plein ; rien n'a été fait.",
  "This table holds the most moves a table may hold; play on at a new table.":
    "Cette table a atteint le nombre maximal de coups ; continuez à une nouvelle table.",
  "This command's id was already used; nothing was done.": "L'identifiant de cette commande a déjà servi ; rien n'a été fait.",
  "You are saying a lot: wait {seconds} s before your next line.":
    "Vous écrivez beaucoup : attendez {seconds} s avant votre prochain message.",
});
