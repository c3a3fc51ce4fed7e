/** @module English answers of the language-check corpus. */
import type { Entry } from "./corpus.ts";

/** English answers. */
export default [
  ["text", "Yes, he says the battery lasts about ten hours [2:31]."],
  ["text", "No, the recipe uses butter, not oil [0:45]."],
  ["markdown", "**Short answer:** the match ended 2-1 [1:32:10]."],
  ["text", "The speaker recommends PostgreSQL over MongoDB for this workload [14:02]."],
  ["text", "She uses a Canon EOS R6 with a 35 mm lens [3:15]."],
  ["markdown", "- Price: $399 [0:40]\n- Weight: 1.2 kg [1:05]"],
  [
    "text",
    "The video reviews the Surface Go, a small and light tablet. The reviewer likes the screen and the keyboard cover, and thinks it is good value for students [0:01]. He is less happy with the battery, which lasted about six hours in his tests [4:12].",
  ],
  [
    "text",
    "The lecture explains how photosynthesis turns light into chemical energy. The professor starts with the light-dependent reactions in the thylakoid membrane [3:20], then moves on to the Calvin cycle [11:45], and ends with a short quiz for the students [42:10].",
  ],
  [
    "markdown",
    "## Summary\n\nThe chef makes a classic carbonara with guanciale, egg yolks and Pecorino Romano [0:35]. She insists that **no cream** goes into the sauce [2:10], and she tosses the pasta off the heat so the eggs do not scramble [6:48].",
  ],
  [
    "markdown",
    "The main points of the talk are:\n\n1. Kubernetes is overkill for most small teams [5:12].\n2. A single VM with Docker Compose is enough until you need autoscaling [9:30].\n3. Observability with Prometheus and Grafana should come first [17:05].",
  ],
  [
    "text",
    "In the second half Real Madrid changed their shape. Ancelotti moved Valverde to the right wing [58:20] and brought on Rodrygo, who scored the equaliser ten minutes later [68:44]. The commentators thought the substitution won the game.",
  ],
  [
    "text",
    "The host compares the iPhone 15 Pro and the Pixel 8 Pro. He prefers the Pixel's camera in low light [6:02] but says the iPhone has better video stabilisation and a faster A17 Pro chip [9:47]. In the end he recommends the Pixel for most people.",
  ],
  [
    "markdown",
    "### Ingredients mentioned\n\n- 500 g of flour [0:50]\n- 10 g of salt\n- 7 g of dry yeast [1:12]\n- 350 ml of warm water\n\nThe dough rests for two hours before shaping [4:30].",
  ],
  [
    "text",
    "According to the video, the Roman Empire split into east and west in 395 AD [7:40]. The narrator argues that the western half fell because of money problems and pressure on the borders, not because of a single invasion [15:22].",
  ],
  [
    "text",
    "The tutorial shows how to set up a React app with Vite and TypeScript. It installs Tailwind CSS [4:05], configures ESLint and Prettier [8:30], and deploys the result to Vercel with a GitHub Action [21:14].",
  ],
  [
    "markdown",
    "The reviewer gives the **Sony WH-1000XM5** four stars out of five [12:30]. Noise cancelling is the best he has tested, and the sound is warm and detailed [5:44]. His complaints are the case, which no longer folds, and the price of $399 [10:02].",
  ],
  [
    "text",
    "The coach explains that a good squat starts from the hips, not the knees. Keep your chest up, push your knees out over your toes, and go down until your thighs are parallel to the floor [2:18]. He suggests three sets of eight reps for beginners [6:55].",
  ],
  [
    "text",
    "The documentary follows a family of elephants across the Kalahari during the dry season. The matriarch leads them to a hidden water hole [22:10], and a young calf gets stuck in the mud before the herd pulls it out [31:45].",
  ],
  [
    "markdown",
    "| Model | Price | Battery |\n|---|---|---|\n| MacBook Air M3 | $1,099 | 18 h |\n| Dell XPS 13 | $999 | 12 h |\n\nThe presenter picks the MacBook Air for its battery life [13:20].",
  ],
  [
    "text",
    "The economist says inflation fell because energy prices dropped and supply chains recovered after the pandemic [4:50]. She does not expect the Federal Reserve to cut rates before the labour market cools down [11:30].",
  ],
  [
    "text",
    "He plays the riff on a Fender Stratocaster through a Marshall amp, with a little overdrive from a Tube Screamer pedal [1:40]. The key to the sound, he says, is palm muting on the low E string [3:05].",
  ],
  [
    "markdown",
    "**Yes.** The speaker mentions that the Python script runs every night as a cron job [7:12], and that it writes the results to an S3 bucket before the dashboard refreshes [8:01].",
  ],
  [
    "text",
    "The video is a walking tour of Lisbon. It starts in Alfama near the cathedral [0:30], climbs to the São Jorge castle [6:15], and ends with custard tarts in Belém [24:50]. The guide recommends taking tram 28 early in the morning to avoid the crowds.",
  ],
  [
    "text",
    "The teacher solves the quadratic equation by completing the square [3:40]. She then shows that the quadratic formula gives the same two roots, x = 2 and x = -5 [8:12], and asks the class to check the answer by substitution.",
  ],
  [
    "markdown",
    "## What went wrong\n\nThe outage began when a config change was pushed to all regions at once [2:05]. The load balancers could not reach the health check endpoint, so they marked every backend as down [4:40]. The team rolled back after 47 minutes [9:30].",
  ],
  ["text", "Not really. The video only mentions vitamin D in passing [12:44] and does not say how much to take."],
  [
    "text",
    "The vlogger tests a Tesla Model 3 on a long road trip from Los Angeles to San Francisco. She stops twice at Superchargers [8:20] and says the car used less energy than expected on the highway [15:35].",
  ],
  [
    "markdown",
    "The steps shown are:\n\n- Remove the back cover with a plastic pry tool [1:10]\n- Disconnect the battery connector first [2:45]\n- Unscrew the four Phillips screws holding the fan [4:02]\n- Clean the dust with compressed air [5:30]",
  ],
  [
    "text",
    "In this episode the historian talks about the building of the Panama Canal. The French attempt failed because of yellow fever and malaria [6:30], and the Americans succeeded only after they drained the swamps and built the locks [19:15].",
  ],
  [
    "text",
    "The speaker thinks large language models are useful for writing code but warns that they invent APIs that do not exist [10:22]. He recommends always running the tests and reading the diff before merging [14:48].",
  ],
  [
    "markdown",
    "**Verdict:** the Nintendo Switch OLED is worth it if you play in handheld mode a lot [9:15]. The screen is brighter and the kickstand is much better, but performance is the same as the original model [6:40].",
  ],
  [
    "text",
    "The cook makes a simple lentil soup. She fries onion, carrot and celery in olive oil [1:20], adds red lentils, cumin and vegetable stock [3:05], and blends half of the soup at the end to make it creamy [9:40].",
  ],
  [
    "text",
    "Djokovic won the first set 6-4 after breaking serve in the ninth game [24:10]. Alcaraz came back in the second set with aggressive returns and several drop shots [51:30], but lost the tie-break in the third.",
  ],
  [
    "markdown",
    "## Key dates\n\n- 1969: Apollo 11 lands on the Moon [3:12]\n- 1981: first Space Shuttle flight [9:45]\n- 1998: assembly of the ISS begins [14:20]\n\nThe presenter ends by talking about the Artemis programme [21:05].",
  ],
  [
    "text",
    "The review says the Samsung Galaxy S24 Ultra has the best zoom camera on the market, with a 5x telephoto lens [7:33]. The titanium frame is lighter than last year, but the S Pen still feels like an afterthought [11:02].",
  ],
  [
    "text",
    "He explains that compound interest is interest on interest. If you invest $1,000 at 7% a year, you will have about $2,000 after ten years [4:15]. Starting early, he says, matters more than picking the perfect fund.",
  ],
  [
    "markdown",
    "The bug was a race condition in the **connection pool** [12:40]. Two goroutines could take the same connection because the mutex was released too early. The fix moves `Unlock()` after the map update [15:10].",
  ],
  [
    "text",
    "The yoga teacher guides a twenty-minute morning routine. It starts with breathing on the mat [0:45], moves through sun salutations [5:20], and finishes with a long child's pose and savasana [17:30].",
  ],
  [
    "text",
    "The presenter builds a gaming PC with a Ryzen 7 7800X3D, an RTX 4070 Super and 32 GB of DDR5 memory [2:10]. He warns to update the BIOS before installing Windows, or the system may not boot [18:45].",
  ],
  [
    "markdown",
    "Yes, twice:\n\n1. At [3:22] she says the film was shot in Iceland.\n2. At [27:40] she adds that the crew waited weeks for the right weather.",
  ],
  [
    "text",
    "The lecture covers supply and demand. When the price of a good rises, people buy less of it and producers want to sell more [5:05]. The point where the two curves meet is the market equilibrium [12:18].",
  ],
  [
    "text",
    "The gardener plants tomatoes in raised beds with compost and a little bone meal [2:30]. She waters them deeply twice a week rather than a little every day, which she says gives stronger roots [6:50].",
  ],
  [
    "markdown",
    "### Pros\n- Great keyboard [4:10]\n- Quiet fans\n\n### Cons\n- Dim screen [7:25]\n- Only two USB-C ports\n\nOverall the ThinkPad X1 Carbon is his pick for business travel [12:00].",
  ],
  [
    "text",
    "The video explains how vaccines train the immune system. A harmless piece of the virus, like the spike protein, teaches B cells to make antibodies [3:45], and memory cells remember it for years [8:10].",
  ],
  [
    "text",
    "The streamer beats the final boss of Elden Ring with a bleed build and the Rivers of Blood katana [1:12:30]. He says the second phase is mostly about staying behind the boss and waiting for the right opening.",
  ],
  [
    "markdown",
    "The author's advice for a first marathon:\n\n- Run most of your training at an easy, conversational pace [3:30]\n- Increase weekly distance by no more than ten percent [6:15]\n- Practise eating gels during long runs [11:40]",
  ],
  [
    "text",
    "The guide says the best time to see the northern lights in Norway is between late September and March [2:20], on clear nights far from the city lights of Tromsø [5:45].",
  ],
  [
    "text",
    "The reviewer found the Kindle Paperwhite comfortable to read in bed thanks to the warm light [3:50]. Battery life is measured in weeks, and the USB-C port is finally there [6:05].",
  ],
  [
    "markdown",
    "No. The speaker says **Rust** is not the right choice for this prototype [18:30]; the team will write it in Go first and rewrite the hot path later if profiling shows a need [21:15].",
  ],
  [
    "text",
    "The chemistry teacher mixes baking soda and vinegar to show an acid-base reaction [1:50]. The bubbles are carbon dioxide, and she catches the gas in a balloon to prove it [4:20].",
  ],
  [
    "text",
    'Yes. He says: "the battery easily lasts a full working day, even with the screen at full brightness" [2:31], and adds that charging takes about two hours with the bundled charger [3:05]. He also thinks the fast charger sold separately is not worth the extra money.',
  ],
  [
    "text",
    'She quotes the Spanish proverb "más vale tarde que nunca" [1:20] and explains that the team shipped the app late but with far fewer bugs, which she thinks was the right trade-off.',
  ],
] satisfies readonly Entry[];
